"""English dates the whole English-reading table reads alike: Django's "12/06/2026" is the 6th of
December in the United States and the 12th of June everywhere else. The day, the month's name and
the year are read the same everywhere, and the time on a 24-hour clock, as the offline note's."""

SHORT_DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATE_FORMAT = "j M Y"
