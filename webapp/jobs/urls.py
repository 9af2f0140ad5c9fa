from django.urls import path

from webapp.jobs import review_views, views

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
    path("jobs/<int:job_id>/restore/", review_views.restore, name="restore"),
    path(
        "jobs/<int:job_id>/output-original",
        review_views.download_original_format,
        name="download_original_format",
    ),
    path("reviews/<int:review_id>/", review_views.review_detail, name="review_detail"),
    path("reviews/<int:review_id>/status/", review_views.review_status, name="review_status"),
    path("reviews/<int:review_id>/decide/", review_views.review_decide, name="review_decide"),
    path("reviews/<int:review_id>/add/", review_views.review_add, name="review_add"),
    path(
        "reviews/<int:review_id>/remove/",
        review_views.review_remove_added,
        name="review_remove_added",
    ),
    path(
        "reviews/<int:review_id>/threshold/", review_views.review_threshold, name="review_threshold"
    ),
    path("reviews/<int:review_id>/apply/", review_views.review_apply, name="review_apply"),
]
