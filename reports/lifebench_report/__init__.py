"""lifebench's report generator: published tables beside measured results, as static HTML.

Modules, one purpose each:
  errors     ReportError, the one exception that becomes `lifebench-report: error: ...`
  units      table units, conversion from cell updates per second, number formatting
  tables     reading and validating reports/tables/*.toml
  results    reading results folders (manifest.json + <experiment>.json)
  schema     checking results files against harness/results.schema.json
  bounds     what bounds an experiment (its README), the ceilings, fractions of bound
  compare    tying results to table cells: the cell's problem, best result, derived rows,
             ratios, normalised ratios
  figures    figure files, reports/plots/*.toml, and their points
  models     cost models fitted to a table's cells
  plots      matplotlib figures (PNG)
  html       what the pages share, and the index page
  table_page a published table's page
  patterns_page  the patterns page: rate against generations per pattern, HashLife's crossover
  output     writing the report folder atomically
  cli        the command line
"""
