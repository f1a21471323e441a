"""Each table's numbers as files to download: <table>.csv and <table>.json beside its page.

A record is one number of the page's grids, exactly as shown (three significant digits, the
text of the cell's data-value): the published grid, then for each machine its measured,
ratio and normalised grids. Each measured record carries its provenance: the machine, the
configurations it comes from (config_id, experiment, parameters), their results folder,
commit and device, the noise the page shows beside it and what verified each source (the timed
problem or a smaller one); a derived number (a ratio of two cells) names both of its sources.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from .cells import PASSED, Cell, TableView
from .evidence import checked
from .units import fmt3

FIELDS = (
    "table", "grid", "machine", "row", "column", "value", "unit", "status", "config_id",
    "experiment", "params", "device", "folder", "commit", "noise", "verification",
)


def _shown(cell: Cell, grid: str) -> str | None:
    """The number the page shows in this grid's cell (its data-value), or None."""
    if grid == "published":
        value = cell.published
    elif grid == "measured":
        value = cell.value if cell.status == PASSED else None
    elif grid == "ratio":
        value = cell.ratio
    else:
        n = cell.normalised
        value = n.value if n is not None else None
    return fmt3(value) if value is not None else None


def _unit(cell: Cell, grid: str) -> str:
    return "ratio" if grid in ("ratio", "normalised") or cell.derived else cell.label


def records(view: TableView) -> list[dict[str, str]]:
    """Every number the table's page shows in its grids, with its provenance."""
    out = []
    table = view.table
    kinds = [(view.grids[0], "published")] + [
        (grid, kind) for grid in view.grids for kind in ("measured", "ratio", "normalised")
    ]
    for grid, kind in kinds:
        columns = table.columns if kind == "published" else view.measured_columns
        for row in table.rows:
            for column in columns:
                cell = grid.cell(row, column)
                value = _shown(cell, kind)
                if value is None:
                    continue
                sources = cell.sources if kind != "published" else []
                machine = grid.machine.name if grid.machine and kind != "published" else ""

                def joined(values) -> str:
                    return "; ".join(dict.fromkeys(str(v) for v in values))

                out.append(
                    {
                        "table": table.stem,
                        "grid": kind,
                        "machine": machine,
                        "row": row.name,
                        "column": column.name,
                        "value": value,
                        "unit": _unit(cell, kind),
                        "status": cell.status if kind != "published" else "published",
                        "config_id": joined(r.config_id for r in sources),
                        "experiment": joined(r.experiment for r in sources),
                        "params": joined(r.params_text for r in sources),
                        "device": joined(r.device_label for r in sources),
                        "folder": joined(r.run.label for r in sources),
                        "commit": joined(r.run.commit for r in sources),
                        "noise": cell.noise.text if sources and cell.noise else "",
                        "verification": joined(
                            how.scope for r in sources if (how := checked(r)) is not None
                        ),
                    }
                )
    return out


def write(view: TableView, folder: Path) -> tuple[str, str]:
    """Writes <table>.csv and <table>.json into `folder`; returns their names."""
    table = view.table
    rows = records(view)
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    csv_name, json_name = f"{table.stem}.csv", f"{table.stem}.json"
    (folder / csv_name).write_text(text.getvalue(), encoding="utf-8")
    document = {
        "table": table.stem,
        "title": table.title,
        "source": {k: v for k, v in table.source.items() if k != "note"},
        "unit": table.label,
        "fields": list(FIELDS),
        "records": rows,
    }
    (folder / json_name).write_text(
        json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return csv_name, json_name
