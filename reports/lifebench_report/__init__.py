"""lifebench's report generator: published tables beside measured results, as static HTML.

Modules, one purpose each:
  errors     ReportError, the one exception that becomes `lifebench-report: error: ...`
  units      table units, conversion from cell updates per second, number formatting
  tables     reading and validating reports/tables/*.toml
  results    reading results folders (manifest.json + <experiment>.json)
  schema     checking results files against harness/results.schema.json
  machines   which machine measured a result, and which of its runs a number comes from
  evidence   a result's noise (the median's interval) and how it was verified
  bounds     what bounds an experiment (its README), the ceilings, fractions of bound
  cells      tying results to table cells: the cell's problem, best result, derived rows,
             ratios, normalised ratios
  figures    figure files, reports/plots/*.toml, and their points
  models     cost models fitted to a table's cells
  plots      matplotlib figures (PNG)
  html       what the pages share (CSS, escaping, the page frame, the configurations table)
  pages      the index, figures, runs, history and configurations pages
  table_page a published table's page
  patterns_page  the patterns page: rate against generations per pattern, HashLife's crossover
  history    each machine's headline configurations over commits, and the steps beyond noise
  scaling_page  the scaling page: bands over ranks measured by transport, the model's prediction
  baseline   the before and after of the index: each configuration against a baseline folder
  downloads  each table's numbers as CSV and JSON, with their provenance
  glossary   the terms the pages link to
  scaling_model  the efficiency of bands across ranks over a network
  output     writing the report folder atomically
  cli        the command line
"""
