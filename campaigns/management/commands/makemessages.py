"""makemessages with sorted catalogues and no source locations.

Sorted entries without line numbers keep a change's catalogue diff to the strings it adds, so two
branches that each add strings merge without rewriting each other's entries.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--sort-output"]
    msguniq_options = [*makemessages.Command.msguniq_options, "--sort-output"]
    msgattrib_options = [*makemessages.Command.msgattrib_options, "--sort-output"]
