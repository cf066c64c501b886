"""The site's URLs plus one bare view: bench_change.py's yardstick, never served by the site."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def bare(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


urlpatterns = [path("bench/bare/", bare), path("", include("companion.urls"))]
