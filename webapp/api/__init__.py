"""The JSON API (django-ninja), authenticated with personal API tokens.

Why django-ninja rather than Django REST Framework: this codebase is function views, Django
forms, dataclasses and service functions. Ninja endpoints are plain functions with type hints
that call the same services and validate through the same `SubmitForm` as the pages, and it
generates the OpenAPI schema from those hints itself; DRF would add a parallel layer of
serializers, viewsets and permission classes (plus drf-spectacular for the schema) that
re-states what the forms and services already say.
"""
