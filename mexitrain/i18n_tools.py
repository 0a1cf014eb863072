"""Catalog upkeep: find every message the code uses, and check or update the catalogs.

    python -m mexitrain.i18n_tools check      # exit 1 and list problems
    python -m mexitrain.i18n_tools update     # add new ids (empty) to every catalog and
                                              # mark the ids the code no longer uses obsolete

Messages are found by reading the source (``ast``), never by running it: calls of ``_``,
``N_``, ``ngettext`` and ``pgettext`` whose text arguments are string literals.
"""

from __future__ import annotations

import ast
import re
import string
import sys
from dataclasses import dataclass
from pathlib import Path

import polib

from .i18n import LOCALE_DIR

PACKAGE = Path(__file__).parent


@dataclass(frozen=True)
class Message:
    msgid: str
    plural: str | None = None
    context: str | None = None
    where: str = ""


def _literal(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def extract(root: Path = PACKAGE) -> dict[tuple[str | None, str], Message]:
    """Every translatable message in the package, keyed by (context, msgid)."""
    found: dict[tuple[str | None, str], Message] = {}
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            args = [_literal(a) for a in node.args]
            where = f"{path.relative_to(root.parent)}:{node.lineno}"
            msg = None
            if name in ("_", "N_") and len(args) == 1 and args[0] is not None:
                msg = Message(args[0], where=where)
            elif name == "ngettext" and len(args) == 3 and args[0] and args[1]:
                msg = Message(args[0], plural=args[1], where=where)
            elif name == "pgettext" and len(args) == 2 and args[0] and args[1]:
                msg = Message(args[1], context=args[0], where=where)
            if msg is not None:
                found.setdefault((msg.context, msg.msgid), msg)
    return found


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a format string (``%`` style is not used)."""
    names = set()
    for _, field, _, _ in string.Formatter().parse(text):
        if field is not None:
            names.add(re.split(r"[.\[!:]", field)[0])
    return names


def catalogs() -> list[Path]:
    return sorted(LOCALE_DIR.glob("*.po"))


def check(path: Path, messages: dict | None = None) -> list[str]:
    """Problems with one catalog: missing, empty, fuzzy or obsolete entries, and
    placeholders that differ from the English."""
    messages = extract() if messages is None else messages
    po = polib.pofile(str(path))
    entries = {(e.msgctxt, e.msgid): e for e in po if not e.obsolete}
    problems = []
    for key, msg in sorted(messages.items(), key=lambda kv: (kv[0][1], kv[0][0] or "")):
        entry = entries.get(key)
        label = f"{path.name}: {msg.msgid!r} ({msg.where})"
        if entry is None:
            problems.append(f"{label}: missing")
            continue
        if "fuzzy" in entry.flags:
            problems.append(f"{label}: marked fuzzy")
        if msg.plural is not None:
            forms = [entry.msgstr_plural.get(i, "") for i in sorted(entry.msgstr_plural)]
            if not forms or not all(forms):
                problems.append(f"{label}: a plural form is empty")
            want = placeholders(msg.msgid) | placeholders(msg.plural)
            for form in forms:
                if form and not placeholders(form) <= want:
                    problems.append(f"{label}: placeholders {sorted(placeholders(form))} vs {sorted(want)}")
        else:
            if not entry.msgstr:
                problems.append(f"{label}: empty translation")
            elif placeholders(entry.msgstr) != placeholders(msg.msgid):
                problems.append(
                    f"{label}: placeholders {sorted(placeholders(entry.msgstr))}"
                    f" vs {sorted(placeholders(msg.msgid))}"
                )
    for key in sorted(set(entries) - set(messages), key=lambda k: (k[1], k[0] or "")):
        problems.append(f"{path.name}: {key[1]!r}: no longer used by the code")
    return problems


def update(path: Path, messages: dict | None = None) -> int:
    """Add every new message to the catalog with an empty translation; return how many.
    Every message's ``#:`` reference is set to where the code has it now.

    Entries the code no longer uses become obsolete (``#~`` lines, as msgmerge does): the
    check ignores them and a translator can still reuse their text. An obsolete entry whose
    id comes back is revived."""
    messages = extract() if messages is None else messages
    po = polib.pofile(str(path))
    for entry in po:
        key = (entry.msgctxt, entry.msgid)
        if entry.msgid:
            entry.obsolete = key not in messages
            if not entry.obsolete:  # the code moves: say where the message is now
                entry.occurrences = [(messages[key].where, "")]
    have = {(e.msgctxt, e.msgid) for e in po}
    added = 0
    for (ctx, msgid), msg in sorted(messages.items(), key=lambda kv: kv[1].where):
        if (ctx, msgid) in have:
            continue
        entry = polib.POEntry(msgid=msgid, msgstr="", msgctxt=ctx, occurrences=[(msg.where, "")])
        if msg.plural is not None:
            entry.msgid_plural = msg.plural
            entry.msgstr_plural = {0: "", 1: ""}
        po.append(entry)
        added += 1
    po.save(str(path))
    return added


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    command = args[0] if args else "check"
    messages = extract()
    if command == "update":
        for path in catalogs():
            print(f"{path.name}: {update(path, messages)} new messages")
        return 0
    problems = [p for path in catalogs() for p in check(path, messages)]
    for p in problems:
        print(p)
    print(f"{len(messages)} messages, {len(catalogs())} catalogs, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
