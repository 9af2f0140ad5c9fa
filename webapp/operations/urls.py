from django.urls import path

from webapp.operations import views

urlpatterns = [
    path("", views.operator, name="operator"),
    path("workers/", views.operator_workers, name="operator_workers"),
    path("chain/", views.operator_chain, name="operator_chain"),
]
