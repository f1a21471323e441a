"""The one error type of the generator: its message is printed as one line."""


class ReportError(Exception):
    """Bad input (table file, results, arguments): printed as `lifebench-report: error: <msg>`."""
