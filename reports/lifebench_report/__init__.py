"""lifebench's report generator: published tables beside measured results, as static HTML.

Modules, one purpose each:
  errors     ReportError, the one exception that becomes `lifebench-report: error: ...`
  units      table units, conversion from cell updates per second, number formatting
  tables     reading and validating reports/tables/*.toml
  results    reading and validating results folders (manifest.json + <experiment>.json)
  compare    tying results to table cells: best result, derived rows, ratios
  plots      matplotlib figures (PNG)
  html       the pages
  output     writing the report folder atomically
  cli        the command line
"""
