from django.urls import path

from webapp.ledger import views

app_name = "ledger"
urlpatterns = [
    path("", views.audit_index, name="audit"),
    path("users.csv", views.audit_csv_export, name="audit_csv"),
    path("users/<int:user_id>/", views.audit_user, name="audit_user"),
    path("users/<int:user_id>/chart.svg", views.audit_chart, name="audit_chart"),
    path("verify/", views.audit_verify, name="verify"),
]
