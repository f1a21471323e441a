"""Results files checked against harness/results.schema.json, the one description of the results
format (results.schema.json beside this module is that file, and installs with the package).

A file that does not match is refused in one line naming the file, the place in the document
(`configurations[3].timing.median_s`) and what is wrong there.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from .errors import ReportError

SCHEMA_FILE = Path(__file__).with_name("results.schema.json")
KINDS = ("manifest", "experiment_results")  # the schema's definitions of a whole file
_LONGEST_MESSAGE = 240


@cache
def _validator(kind: str):
    try:
        import jsonschema
    except ImportError:
        raise ReportError(
            "the Python module jsonschema is missing: tools/setup.sh installs it "
            "(Debian's python3-jsonschema, or pip install jsonschema)"
        ) from None
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    # The whole schema with its root replaced by the definition of this kind of file.
    document = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": f"#/$defs/{kind}"}
    return jsonschema.Draft202012Validator(document)


def location(path: Any) -> str:
    """`configurations[3].timing.median_s` for the path ["configurations", 3, "timing", ...]."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "the document"


def check(file: Path, data: Any, kind: str) -> None:
    """Raises ReportError unless `data`, read from `file`, is a valid `kind` of results file."""
    validator = _validator(kind)
    import jsonschema.exceptions

    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is None:
        return
    message = error.message
    if isinstance(error.instance, (dict, list)):  # not the whole object again
        kind = "object" if isinstance(error.instance, dict) else "array"
        message = message.replace(repr(error.instance), f"the {kind}")
    message = " ".join(message.split())
    if len(message) > _LONGEST_MESSAGE:
        message = message[: _LONGEST_MESSAGE - 1] + "…"
    raise ReportError(
        f"{file}: {location(error.absolute_path)}: {message} (harness/results.schema.json)"
    )
