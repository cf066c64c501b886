"""A form whose fields are known only when it is made (one per player, per symbol, per step…)."""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping

from django import forms


class BuiltForm(forms.Form):
    """Made as a command's or a set-up's form is (data, initial, auto_id); `add_fields` then adds
    the fields that depend on the game's data, where a form would otherwise override
    `__init__`."""

    def __init__(
        self,
        data: Mapping[str, object] | None = None,
        *,
        initial: MutableMapping[str, object] | None = None,
        auto_id: bool | str = "id_%s",
        prefix: str | None = None,
    ) -> None:
        super().__init__(data, initial=initial, auto_id=auto_id, prefix=prefix)
        self.add_fields()

    def add_fields(self) -> None:
        """Add the fields this form's data decides (none here)."""
