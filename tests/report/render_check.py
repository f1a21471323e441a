#!/usr/bin/env python3
"""Renders a lifebench report in headless Chromium and checks what a reader would see.

    render_check.py --report DIR [--tables DIR] [--work DIR]

For index.html and every table page (one per reports/tables/*.toml) it asks Chromium for
the DOM after loading (--dump-dom) and for a screenshot, in one launch, then checks:
  * the page has no <script> element (text from results is escaped);
  * index.html has a dashboard line linking every table page and fits in two screens
    (TWO_SCREENS); configurations.html lists the configurations, figures.html shows the plots;
  * each table page has the published, measured, ratio and normalised tables with every row
    and column of the table file, the published numbers of the table file, each measured cell
    either a number marked verified or no number and a reason, ratios that are measured /
    published, normalised ratios that are the ratio over the ceilings' factor they show, and
    computed rows that are the ratio of their rows;
  * each plot <img> refers to a PNG inside the report, and the screenshot shows it: the PNG's
    background colour covers the image's area and its data colour is drawn.
It works on any report (the sweep's, with the real measurements); the synthetic test
(test_render.py) passes expectations for the values of each cell as well.

Chromium is not optional: without it this check FAILS (tools/setup.sh installs it).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import tomllib
from collections import Counter
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))

import dom  # noqa: E402

HERE = Path(__file__).resolve().parent
DEFAULT_TABLES = HERE.parent.parent / "reports" / "tables"
WINDOW = (1400, 3200)
TWO_SCREENS = 1800  # CSS pixels: the index's height at most, at WINDOW's width
TIMEOUT_S = 120
STATUSES = {"passed", "failed", "unverified", "not_run"}
CELL_KEYS = ("data-kind", "data-row", "data-col")  # what names a grid's cell

# (row, column) -> (status, value or None, text the cell must contain)
Expectations = dict[tuple[str, str], tuple[str, float | None, str]]


class CheckFailed(Exception):
    pass


def find_chromium() -> str:
    for name in (os.environ.get("LIFEBENCH_CHROMIUM"), "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    raise CheckFailed(
        "chromium not found on PATH (nor LIFEBENCH_CHROMIUM): the render test needs "
        "Debian's 'chromium' package; run tools/setup.sh"
    )


def chromium(
    binary: str, page: Path, work: Path, *, screenshot: Path | None = None,
    height: int = WINDOW[1],
) -> str:
    """Loads `page` headless once; returns its DOM and writes `screenshot` if given (one
    launch for both: a launch costs more than the page). Time-limited."""
    profile = Path(tempfile.mkdtemp(prefix="chromium-profile-", dir=work))
    command = [
        binary,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-sync",
        "--disable-component-update",
        "--force-device-scale-factor=1",
        f"--window-size={WINDOW[0]},{height}",
    ]
    command += ["--dump-dom"] + ([f"--screenshot={screenshot}"] if screenshot else [])
    command.append(page.resolve().as_uri())
    # Own session, so that a hang is ended with all of Chromium's children and nothing else.
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, text=True
    )
    try:
        out, err = process.communicate(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise CheckFailed(f"chromium did not finish {page.name} within {TIMEOUT_S} s") from None
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    if process.returncode != 0 or (screenshot and not screenshot.exists()) or "<html" not in out:
        tail = "\n".join(err.strip().splitlines()[-8:])
        raise CheckFailed(f"chromium failed on {page.name} (exit {process.returncode}):\n{tail}")
    return out


def number(text: str) -> float | None:
    try:
        return float(text.replace("\u00d7", "").strip())
    except ValueError:
        return None


def close(a: float, b: float, rel: float = 0.006) -> bool:
    """Equal to three significant digits (with the rounding of both sides allowed for)."""
    return math.isclose(a, b, rel_tol=rel)


class Checker:
    def __init__(
        self,
        report: Path,
        tables: Path,
        work: Path,
        expect: Expectations | None = None,
        expect_table: str | None = None,
    ):
        self.report, self.tables, self.work = report, tables, work
        self.expect, self.expect_table = expect or {}, expect_table
        self.failures: list[str] = []
        self.binary = find_chromium()

    def fail(self, page: str, message: str):
        self.failures.append(f"{page}: {message}")

    def run(self) -> list[str]:
        index = self.report / "index.html"
        if not index.is_file():
            raise CheckFailed(f"{index} does not exist")
        stems = sorted(p.stem for p in self.tables.glob("*.toml"))
        if not stems:
            raise CheckFailed(f"no *.toml table in {self.tables}")
        tall = self.work / "index-height.png"
        root = self.page_dom(index, tall, 3 * TWO_SCREENS)
        for stem in stems:
            if not root.find("a", href=f"{stem}.html"):
                self.fail("index.html", f"no link to the table page {stem}.html")
            if not root.find("tr", data_table=stem):
                self.fail("index.html", f"no dashboard line for {stem}")
        self.check_height(index, tall)
        page = self.report / "configurations.html"
        root = self.page_dom(page)
        if (
            not root.find("table", cls="configs")
            and "No configuration was recorded" not in root.text
        ):
            self.fail(
                page.name, "neither a configurations table nor 'No configuration was recorded'"
            )
        page = self.report / "figures.html"
        shot = self.work / f"{page.stem}.png"
        self.check_plots(page.name, self.page_dom(page, shot), shot)
        for stem in stems:
            page = self.report / f"{stem}.html"
            if not page.is_file():
                self.fail(page.name, "missing")
                continue
            shot = self.work / f"{page.stem}.png"
            root = self.page_dom(page, shot)
            if self.check_table(stem, root):
                self.check_plots(page.name, root, shot)
            elif root.find("img") or "No chart" not in root.text:
                self.fail(page.name, "nothing to chart, but no 'No chart' line in place of a plot")
        return self.failures

    def page_dom(
        self, page: Path, screenshot: Path | None = None, height: int = WINDOW[1]
    ) -> dom.Node:
        """The DOM of `page`, its screenshot in a window `height` pixels tall written to
        `screenshot` if given."""
        text = chromium(self.binary, page, self.work, screenshot=screenshot, height=height)
        (self.work / f"{page.stem}.dom.html").write_text(text)
        root = dom.parse(text)
        if root.find("script"):
            self.fail(page.name, "has a <script> element: text was not escaped")
        if not root.find("h1") or not root.find("h1").text.strip():
            self.fail(page.name, "no <h1> title")
        return root

    def check_height(self, page: Path, shot: Path):
        """The page's content ends within two screens (TWO_SCREENS CSS pixels): below it its
        screenshot `shot`, of a window of three, is blank."""
        from PIL import Image, ImageOps

        with Image.open(shot) as im:
            box = ImageOps.invert(im.convert("RGB")).getbbox()  # the non-white pixels
        bottom = box[3] if box else 0
        if bottom > TWO_SCREENS:
            self.fail(page.name, f"{bottom} px tall, more than two screens ({TWO_SCREENS} px)")

    # ------------------------------------------------------------------ tables

    def check_table(self, stem: str, root: dom.Node) -> bool:
        """Checks the three grids; True where a cell has a value to chart."""
        page = f"{stem}.html"
        with (self.tables / f"{stem}.toml").open("rb") as f:
            spec = tomllib.load(f)
        rows = spec["rows"]
        for kind in ("published", "measured", "ratio", "normalised"):
            if not root.find("table", id=kind):
                self.fail(page, f'no <table id="{kind}">')
        # Columns no result is tied to: published only, absent from the measured grids.
        listed = root.find(id="published-only")
        hidden = {s.text for s in listed.find_all("span", cls="column")} if listed else set()
        devices = {c["name"] for c in spec["columns"] if "hardware" in c}
        ratios = {c["name"] for c in spec["columns"] if set(c.get("ratio", ())) & hidden}
        if hidden - devices - ratios:
            self.fail(page, f"published only: {sorted(hidden - devices - ratios)} are not "
                      "columns of a published device or ratios over one")
        charted = False
        published_cells = root.lookup("td", *CELL_KEYS)
        # One measured, ratio and normalised grid per machine, each checked alike; the
        # expected values (of a one-machine run) in the first.
        for i, block in enumerate(root.find_all("div", cls="machine-grids") or [root]):
            measured = self.check_grids(page, spec, published_cells, block, hidden)
            charted = charted or any(v is not None for v in measured.values())
            if i == 0 and self.expect and stem == self.expect_table:
                for key in self.expect:
                    if key not in measured:
                        self.fail(page, f"expected cell {key} is not in the page")
        # Published ratio rows are charted too (a table may publish only speed-ups).
        return charted or any(p != "-" for r in rows for p in r["published"])

    def check_grids(
        self, page: str, spec: dict, published_cells: dict, block: dom.Node, hidden: set
    ) -> dict:
        """One machine's grids (`block`, or the page's only ones) beside the published grid
        of the page: measured cells, ratios, normalised ratios and computed rows; returns the
        measured values."""
        columns = [c["name"] for c in spec["columns"]]
        rows = spec["rows"]
        machine = block.attrs.get("data-machine")

        def higher_is_better(column: dict) -> bool:  # a column may have a unit of its own
            return column.get("unit", spec["unit"]) not in (
                "s", "ms", "us", "s/gen", "ms/gen", "us/gen")

        cells = block.lookup("td", *CELL_KEYS)
        measured: dict[tuple[str, str], float | None] = {}
        for row in rows:
            for i, (column, column_spec) in enumerate(zip(columns, spec["columns"])):
                key = (row["name"], column)
                where = f"{row['name']} / {column}"
                pub = published_cells.get(("published", key[0], column))
                mea, rat, nor = (cells.get((kind, key[0], column))
                                 for kind in ("measured", "ratio", "normalised"))
                if column in hidden:
                    if mea or rat or nor:
                        self.fail(page, f"{where}: published only, yet in the measured grids")
                elif not (mea and rat and nor):
                    self.fail(page, f"{where}: a measured or ratio cell is missing")
                    continue
                if not pub:
                    self.fail(page, f"{where}: the published cell is missing")
                    continue
                published = row["published"][i]
                shown = number(pub.attrs.get("data-value", ""))
                if published == "-":
                    if shown is not None:
                        self.fail(
                            page, f"{where}: published shows {shown}, the table file has none"
                        )
                elif (
                    shown is None
                    or not close(shown, float(published))
                    or pub.attrs["data-value"] not in pub.text
                ):
                    self.fail(
                        page,
                        f"{where}: published shows {pub.text.strip()!r}, "
                        f"the table file has {published}",
                    )
                if column in hidden:
                    continue
                measured[key] = self.check_measured(page, where, key, mea)
                self.check_ratio(
                    page, where, rat, measured[key], None if published == "-" else float(published)
                )
                self.check_normalised(page, where, nor, number(rat.attrs.get("data-value", "")),
                                      higher_is_better(column_spec))
        for row in rows:  # computed rows: the ratio of their two rows, or of one run's two
            if "ratio" not in row:
                continue
            num, den = row["ratio"]
            for column in columns:
                value, a, b = (measured.get((n, column)) for n in (row["name"], num, den))
                if a is not None and b is not None:
                    # The cells shown, or where they come from different runs, the one run's
                    # two values the cell names.
                    expected = self.one_run_quotient(
                        cells.get(("measured", row["name"], column)))
                    expected = a / b if expected is None else expected
                    if value is None or not close(value, expected, 0.012):
                        self.fail(
                            page,
                            f"{row['name']} / {column}: shows {value}, {num}/{den} = "
                            f"{expected:.4g}",
                        )
                elif value is not None:
                    self.fail(
                        page,
                        f"{row['name']} / {column}: shows {value} without both {num} and {den}",
                    )
        for number_node in block.find_all(cls="num"):  # every number names its machine
            title = number_node.attrs.get("title", "")
            if machine and f"on {machine}" not in title:
                self.fail(page, f"{number_node.text!r} in {machine}'s grids: title {title!r}")
        return measured

    @staticmethod
    def one_run_quotient(cell: dom.Node | None) -> float | None:
        """A computed cell's quotient of one run's values, where its sides shown come from
        different runs and it says it took both from one run."""
        if cell is None or "both of one run" not in cell.text:
            return None
        num, _, den = cell.attrs.get("data-quotient", "").partition("/")
        a, b = number(num), number(den)
        return a / b if a is not None and b else None

    def check_measured(self, page: str, where: str, key, cell: dom.Node) -> float | None:
        status = cell.attrs.get("data-status")
        value = number(cell.attrs.get("data-value", ""))
        text = " ".join(cell.text.split())
        if status not in STATUSES:
            self.fail(page, f"{where}: measured status {status!r}")
            return None
        if status == "passed":
            if (
                value is None
                or value <= 0
                or cell.attrs["data-value"] not in text
                or "verified" not in text
            ):
                self.fail(page, f"{where}: passed but shows {text!r}")
        else:
            why = cell.find(cls="why")
            if value is not None:
                self.fail(page, f"{where}: {status} but shows the number {value}")
            if not why or not why.text.strip():
                self.fail(page, f"{where}: {status} without a reason")
            if "not run" not in text and "failed" not in text and "not verified" not in text:
                self.fail(page, f"{where}: {status} but says {text!r}")
        if key in self.expect:
            want_status, want_value, want_text = self.expect[key]
            if status != want_status:
                self.fail(page, f"{where}: status {status}, expected {want_status} ({text!r})")
            if want_value is not None and (value is None or not close(value, want_value)):
                self.fail(page, f"{where}: measured {value}, expected {want_value:.4g}")
            if want_text not in text:
                self.fail(page, f"{where}: {text!r} does not say {want_text!r}")
        return value if status == "passed" else None

    def check_ratio(self, page: str, where: str, cell: dom.Node, measured, published):
        value = number(cell.attrs.get("data-value", ""))
        if measured is not None and published is not None:
            if value is None or not close(value, measured / published, 0.012):
                self.fail(
                    page,
                    f"{where}: ratio shows {cell.text.strip()!r}, measured / published = "
                    f"{measured / published:.4g}",
                )
        elif value is not None:
            self.fail(page, f"{where}: ratio {value} without a measured and a published value")

    def check_normalised(self, page: str, where: str, cell: dom.Node, ratio, higher_is_better):
        """A normalised ratio needs a ratio, and is it over (a time: times) the factor shown."""
        value = number(cell.attrs.get("data-value", ""))
        if value is None:
            return
        factor = re.search(r"ceiling ([0-9.e+-]+)\u00d7 theirs", cell.text)
        if ratio is None or factor is None:
            self.fail(page, f"{where}: normalised {value} without a ratio and its factor")
            return
        f = float(factor.group(1))
        want = ratio / f if higher_is_better else ratio * f
        if not close(value, want, 0.02):
            self.fail(
                page, f"{where}: normalised {value}, ratio {ratio} and factor {f}: {want:.4g}"
            )

    # ------------------------------------------------------------------ plots

    def check_plots(self, name: str, root: dom.Node, shot: Path):
        """Each plot <img> of page `name` (its DOM `root`, its screenshot `shot`) is a PNG of
        the report, shown at a readable size and drawn in the screenshot."""
        images = root.find_all("img")
        if not images:
            self.fail(name, "no plot <img>")
            return
        from PIL import Image

        with Image.open(shot) as im:
            screen_colours = _colours(im.convert("RGB"))  # once for the page's plots
        for img in images:
            src = img.attrs.get("src", "")
            path = (self.report / src).resolve()
            if "/" in src or ":" in src or not path.is_file():
                self.fail(name, f"plot {src!r} is not a file inside the report")
                continue
            try:
                with Image.open(path) as im:
                    plot = im.convert("RGB")
            except OSError as e:
                self.fail(name, f"plot {src}: not an image ({e})")
                continue
            width, height = int(img.attrs.get("width", 0)), int(img.attrs.get("height", 0))
            if width < 200 or height < 100:
                self.fail(name, f"plot {src}: shown at {width}x{height}")
                continue
            self.check_rendered(name, src, plot, screen_colours, width * height)

    def check_rendered(self, name: str, src: str, plot, screen_colours: Counter, shown_area: int):
        """The screenshot (its colours, `screen_colours`) holds the plot: its background and
        its data colour are there."""
        plot_colours = _colours(plot)
        background, background_n = plot_colours.most_common(1)[0]
        saturated = Counter({c: n for c, n in plot_colours.items() if max(c) - min(c) > 90})

        def count(colour, tolerance):
            return sum(
                n
                for c, n in screen_colours.items()
                if max(abs(a - b) for a, b in zip(c, colour)) <= tolerance
            )

        want = 0.5 * shown_area * background_n / (plot.width * plot.height)
        seen = count(background, 4)
        if seen < want:
            self.fail(
                name,
                f"plot {src} is not shown: the screenshot has {seen} pixels of its background "
                f"colour {background}, expected at least {int(want)} (is it below the "
                f"{WINDOW[0]}x{WINDOW[1]} window?)",
            )
            return
        if saturated:
            colour, n = saturated.most_common(1)[0]
            want = max(20, 0.1 * n * shown_area / (plot.width * plot.height))
            seen = count(colour, 40)
            if seen < want:
                self.fail(
                    name,
                    f"plot {src}: its data colour {colour} is not drawn in the screenshot "
                    f"({seen} pixels, expected at least {int(want)})",
                )


def _colours(image) -> Counter:
    """Pixel count per RGB colour (getcolors exists in every Pillow version)."""
    return Counter(
        {colour: n for n, colour in image.getcolors(maxcolors=image.width * image.height)}
    )


def check_report(
    report: Path,
    tables: Path = DEFAULT_TABLES,
    work: Path | None = None,
    expect: Expectations | None = None,
    expect_table: str | None = None,
) -> list[str]:
    """Failures, as lines (empty: the report renders as it should)."""
    own = work is None
    work = Path(tempfile.mkdtemp(prefix="lifebench-render-")) if own else work
    work.mkdir(parents=True, exist_ok=True)
    try:
        return Checker(report, tables, work, expect, expect_table).run()
    except CheckFailed as e:
        return [str(e)]
    finally:
        if own:
            shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--report", type=Path, required=True, help="report folder (index.html inside)"
    )
    parser.add_argument("--tables", type=Path, default=DEFAULT_TABLES, help="reports/tables")
    parser.add_argument("--work", type=Path, help="keep DOM dumps and screenshots here")
    args = parser.parse_args()
    failures = check_report(args.report, args.tables, args.work)
    for failure in failures:
        print(f"render check FAILED: {failure}", file=sys.stderr)
    if not failures:
        print(
            f"render check passed: {args.report.resolve() / 'index.html'}"
            + (f" (screenshots in {args.work.resolve()})" if args.work else "")
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
