"""factory_boy factories for documents, jobs and receipts."""

import hashlib

import factory
from django.contrib.auth import get_user_model

from anonymizer import Settings, rewrite
from webapp.jobs import services
from webapp.jobs.models import Document, RewriteJob


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", "pw-123456789")


class DocumentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Document

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"doc-{n}.txt")
    text = "Write to jane@example.com today."
    sha256 = factory.LazyAttribute(lambda d: hashlib.sha256(d.text.encode()).hexdigest())
    n_chars = factory.LazyAttribute(lambda d: len(d.text))


class JobFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RewriteJob

    owner = factory.SubFactory(UserFactory)
    document = factory.SubFactory(DocumentFactory, owner=factory.SelfAttribute("..owner"))
    mechanism = "redact"
    settings = factory.LazyFunction(
        lambda: Settings(mechanism="redact", detector="regex").to_dict()
    )


def succeeded_job(owner, text: str = "Write to jane@example.com today.") -> RewriteJob:
    """A job run through the real redact mechanism and completed by the real service."""
    job = JobFactory(owner=owner, document__text=text)
    services.claim_job(job.pk)
    services.complete_job(job.pk, rewrite(text, Settings.from_mapping(job.settings)))
    job.refresh_from_db()
    return job
