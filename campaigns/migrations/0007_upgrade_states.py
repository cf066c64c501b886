"""Every stored campaign in this release's shape (campaigns.upgrades): Eldritch Horror's game
gains `awakening` (806fe27), and Arkham scenarios started before the scenario cards (915eb5a)
are marked so that they replay as they were played. The work is campaigns.upgrades's, the
function an older file's import calls too."""

from django.db import migrations


def upgrade(apps, schema_editor):
    from campaigns import upgrades

    upgrades.upgrade_stored(
        apps.get_model("campaigns", "Campaign"),
        apps.get_model("campaigns", "Event"),
        apps.get_model("campaigns", "Snapshot"),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0006_membership_last_seen"),
    ]

    operations = [
        # Nothing to undo: an upgraded state is one the earlier release reads as well.
        migrations.RunPython(upgrade, migrations.RunPython.noop),
    ]
