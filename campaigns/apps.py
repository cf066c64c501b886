from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = _("Campaigns")

    def ready(self) -> None:
        from campaigns import live_signals
        from companion import checks  # noqa: F401 (registers the deploy checks)

        # Every change, removal and deletion reaches the open streams, whichever code made it.
        live_signals.connect_signals()
