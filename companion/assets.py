"""Static files as a phone receives them: as few bytes as the first load of a page can be.

`collectstatic` writes our own style sheets and scripts (`css/`, `js/`) without their comments
and spaces, and every file's `.gz` with Zopfli: a gzip stream any browser reads, some 3–5 %
smaller than gzip's own best. The files in `static/` stay as written, and are what a DEBUG
server sends; no build step is needed to run the site. (A phone with no cache downloads swap.js,
live.js and the style sheets before it can tap: issue 8 gives that first load 22 KB, which is why
the site has its own small swap.js rather than htmx 2, whose 16 KB alone would take most of it.)
"""

import rcssmin
import rjsmin
import zopfli.gzip
from django.conf import settings
from django.core.files.base import ContentFile, File
from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage

# The folders whose style sheets and scripts are minified when collected (only static/'s own
# files are collected: tests/test_assets.py).
OWN = ("css/", "js/")
MINIFY = {".css": rcssmin.cssmin, ".js": rjsmin.jsmin}


class ZopfliCompressor(Compressor):
    @staticmethod
    def compress_gzip(data: bytes) -> bytes:
        return zopfli.gzip.compress(data)


class Storage(CompressedManifestStaticFilesStorage):
    """Also: the manifest's hashed URLs, each worked out once. The manifest is read at start and
    never changes while the server runs, and a page names dozens of icons (each `{% static %}`
    otherwise looks its name up, hashes and joins it again)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.urls: dict[str, str] = {}

    def url(self, name: str | None, force: bool = False) -> str:
        if force or settings.DEBUG or name is None:
            return super().url(name, force)
        try:
            return self.urls[name]
        except KeyError:
            url = self.urls[name] = super().url(name)
            return url

    def _save(self, name: str, content: File) -> str:
        minify = MINIFY.get(name[name.rfind(".") :])
        if minify and name.startswith(OWN):
            content.seek(0)  # the hashing may have read it already
            text = content.read()
            text = text.decode() if isinstance(text, bytes) else text
            content = ContentFile(minify(text).encode())
        return super()._save(name, content)

    def create_compressor(self, **kwargs: object) -> Compressor:
        return ZopfliCompressor(**kwargs)
