def delta(before: str, after: str) -> str | None:
    """The changed `[data-live][id]` regions of `after` and its title; None: the whole page."""
    return None
