from django.urls import path

from webapp.jobs import views

urlpatterns = [
    path("", views.submit, name="submit"),
    path("history/", views.history, name="history"),
    path("jobs/<int:job_id>/", views.job_detail, name="job_detail"),
    path("jobs/<int:job_id>/status/", views.job_status, name="job_status"),
    path("jobs/<int:job_id>/cancel/", views.job_cancel, name="job_cancel"),
    path("jobs/<int:job_id>/output.txt", views.download_output, name="download_output"),
    path("jobs/<int:job_id>/receipt.json", views.download_receipt, name="download_receipt"),
]
