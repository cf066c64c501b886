"""Every UI string exists in English, 日本語, 简体中文 and 繁體中文, and the site speaks them."""

import gettext
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
LANGUAGES = ["ja", "zh_Hans", "zh_Hant"]


def po_entries(path: Path):
    """(msgid, msgid_plural, [msgstr…], fuzzy) for each entry of a .po file but the header."""
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = [line.strip() for line in block.splitlines()]
        if any(line.startswith("#~") for line in lines):
            continue
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in lines)
        fields: dict[str, str] = {}
        current = None
        for line in lines:
            if line.startswith(("msgid ", "msgid_plural ", "msgstr ", "msgstr[", "msgctxt ")):
                current, _, rest = line.partition(" ")
                fields[current] = fields.get(current, "") + rest.strip()[1:-1]
            elif line.startswith('"') and current:
                fields[current] += line[1:-1]
        if fields.get("msgid"):
            strs = [v for k, v in sorted(fields.items()) if k.startswith("msgstr")]
            # A string with a context is stored as "context\x04msgid", as gettext does.
            msgid = fields["msgid"]
            if "msgctxt" in fields:
                msgid = fields["msgctxt"] + "\x04" + msgid
            yield msgid, fields.get("msgid_plural"), strs, fuzzy


ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(1)), text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_is_translated_and_none_is_fuzzy(language):
    entries = list(po_entries(LOCALE / language / "LC_MESSAGES" / "django.po"))
    assert len(entries) > 100
    untranslated = [msgid for msgid, _plural, strs, _fuzzy in entries if not all(strs)]
    fuzzy = [msgid for msgid, _plural, _strs, is_fuzzy in entries if is_fuzzy]
    assert untranslated == []
    assert fuzzy == []


@pytest.mark.parametrize("language", ["zh_Hans", "zh_Hant"])
def test_chinese_writes_its_own_middle_dot_and_colon(language):
    """The Japanese middle dot (・) is not Chinese punctuation, and a colon after a word is the
    full-width one (：), as the catalogues write them elsewhere."""
    entries = po_entries(LOCALE / language / "LC_MESSAGES" / "django.po")
    wrong = [
        (msgid, text)
        for msgid, _plural, strs, _fuzzy in entries
        for text in strs
        if "・" in text or re.search(r"[\u4e00-\u9fff]: ", text)
    ]
    assert wrong == []


@pytest.mark.parametrize(
    "language,label",
    [
        ("en", "Campaign name:"),
        ("ja", "キャンペーン名："),
        ("zh-hans", "战役名称："),
        ("zh-hant", "戰役名稱："),
    ],
)
def test_a_label_drawn_by_django_ends_in_the_languages_own_colon(owner_client, language, label):
    """Django's forms put gettext(":") after a label, which its own catalogues leave ASCII in
    Japanese and Chinese; the site's catalogues make it full-width there."""
    owner_client.cookies["django_language"] = language
    page = owner_client.get("/new/any/").content.decode()
    assert f">{label}</label>" in page


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalogue_matches_its_source(language):
    folder = LOCALE / language / "LC_MESSAGES"
    with (folder / "django.mo").open("rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)
    stale = []
    for msgid, plural, strs, _fuzzy in po_entries(folder / "django.po"):
        source = unescape(strs[0])
        if plural:
            got = catalogue.ngettext(unescape(msgid), unescape(plural), 1)
        else:
            got = catalogue.gettext(unescape(msgid))
        if got != source:
            stale.append(msgid)
    assert stale == [], "run `make messages` to compile the catalogues"


@pytest.mark.parametrize(
    ("language", "word"), [("ja", "元に戻す"), ("zh-hans", "撤销"), ("zh-hant", "復原")]
)
def test_the_campaign_page_speaks_the_chosen_language(owner_client, campaign, language, word):
    response = owner_client.post("/language/", {"language": language, "next": "/"})
    assert response.status_code == 302
    page = owner_client.get(f"/c/{campaign.pk}/").content.decode()
    assert f'<html lang="{language}">' in page
    assert word in page


@pytest.mark.sweep
def test_every_string_in_the_code_is_in_the_catalogues(tmp_path):
    """makemessages on a copy of the code finds no string the catalogues do not hold."""
    for name in ("accounts", "campaigns", "companion", "templates"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "manage.py", tmp_path)
    (tmp_path / "locale").mkdir()
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "ja", "--verbosity", "0"],
        cwd=tmp_path,
        check=True,
        env={
            "DJANGO_SETTINGS_MODULE": "companion.settings",
            "PATH": "/usr/bin:/bin",
            "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
            "DJANGO_SECRET_KEY": "x" * 50,
        },
    )
    found = {msgid for msgid, *_ in po_entries(tmp_path / "locale/ja/LC_MESSAGES/django.po")}
    held = {msgid for msgid, *_ in po_entries(LOCALE / "ja/LC_MESSAGES/django.po")}
    assert sorted(found - held) == [], "run `make messages` and translate the new strings"
