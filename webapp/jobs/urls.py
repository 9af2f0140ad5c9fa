from django.urls import path

from webapp.jobs import views

urlpatterns = [
    path("", views.submit, name="submit"),
    path("submit/params/", views.submit_params, name="submit_params"),
    path("submit/preview/", views.submit_preview, name="submit_preview"),
    path("history/", views.history, name="history"),
    path("jobs/<int:job_id>/", views.job_detail, name="job_detail"),
    path("jobs/<int:job_id>/status/", views.job_status, name="job_status"),
    path("jobs/<int:job_id>/cancel/", views.job_cancel, name="job_cancel"),
    path("jobs/<int:job_id>/output.txt", views.download_output, name="download_output"),
    path("jobs/<int:job_id>/receipt.json", views.download_receipt, name="download_receipt"),
    path("jobs/<int:job_id>/bundle.zip", views.download_zip, name="download_zip"),
    path("documents/<int:document_id>/delete/", views.document_delete, name="document_delete"),
]
