import os

from django.core.asgi import get_asgi_application

from companion.limits import cap_request_bodies

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
application = cap_request_bodies(get_asgi_application())
