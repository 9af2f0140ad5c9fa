"""Account URLs under /accounts/. The auth views keep Django's URL names (unnamespaced),
because Django's own views reverse them by those names."""

from django.contrib.auth import views as auth_views
from django.urls import path

from webapp.accounts import views

urlpatterns = [
    path("settings/", views.account_settings, name="account_settings"),
    path("tokens/<int:token_id>/revoke/", views.token_revoke, name="token_revoke"),
    path("invites/", views.invites, name="invites"),
    path("invites/<int:invite_id>/revoke/", views.invite_revoke, name="invite_revoke"),
    path("invite/set-password/", views.invite_set_password, name="invite_set_password"),
    path("invite/<str:secret>/", views.invite_accept, name="invite_accept"),
    path(
        "password/change/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("password/reset/", views.password_reset, name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
