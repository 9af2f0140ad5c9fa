from django.urls import path

from webapp.batches import views

urlpatterns = [
    path("", views.batch_list, name="batch_list"),
    path("new/", views.batch_new, name="batch_new"),
    path("<int:batch_id>/", views.batch_detail, name="batch_detail"),
    path("<int:batch_id>/cancel/", views.batch_cancel, name="batch_cancel"),
    path("<int:batch_id>/bundle.zip", views.batch_download, name="batch_download"),
]
