from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from webapp.api.api import api

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/", include("webapp.accounts.urls")),
    path("api/", api.urls),
    path("operator/", include("webapp.operations.urls")),
    path("batches/", include("webapp.batches.urls")),
    path("audit/", include("webapp.ledger.urls")),
    path("", include("webapp.jobs.urls")),
]
