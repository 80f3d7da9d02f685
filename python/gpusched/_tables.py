"""Tables for gpusched: rows and columns as pandas DataFrames, or NumPy record arrays when pandas is absent."""
import csv
import io


def _pandas():
    try:
        import pandas
    except ImportError:
        return None
    return pandas


def _cell(text):
    """A CSV cell as int, float or str (the first that reads it)."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _record_array(columns, rows):
    import numpy
    if not rows:
        return numpy.rec.fromarrays([numpy.array([], dtype=object) for _ in columns], names=list(columns))
    arrays = []
    for i in range(len(columns)):
        values = [row[i] for row in rows]
        if any(isinstance(v, (str, type(None), list, dict)) for v in values):
            arrays.append(numpy.array(["" if v is None else v for v in values], dtype=object))
        else:
            arrays.append(numpy.array(values))
    return numpy.rec.fromarrays(arrays, names=list(columns))


def from_records(records, columns=None):
    """A table of dicts (one per row): a DataFrame, else a record array."""
    if columns is None:
        columns = list(records[0].keys()) if records else []
    pandas = _pandas()
    if pandas is not None:
        return pandas.DataFrame.from_records(records, columns=columns)
    return _record_array(columns, [[r.get(c) for c in columns] for r in records])


def from_columns(columns):
    """A table of equally long NumPy columns {name: array}: a DataFrame, else a record array."""
    pandas = _pandas()
    if pandas is not None:
        return pandas.DataFrame(columns)
    import numpy
    return numpy.rec.fromarrays(list(columns.values()), names=list(columns.keys()))


def from_results_csv(text):
    """A sweep results CSV (gpusched sweep --out; '#' lines first): one row per point, numbers as numbers."""
    lines = text.splitlines(keepends=True)
    first = next((i for i, line in enumerate(lines) if not line.startswith("#")), len(lines))
    body = "".join(lines[first:])
    pandas = _pandas()
    if pandas is not None:
        table = pandas.read_csv(io.StringIO(body), keep_default_na=False, na_values=[""])
        if "error" in table.columns:
            table["error"] = table["error"].fillna("").astype(str)
        return table
    reader = csv.reader(io.StringIO(body))
    columns = next(reader)
    rows = [[_cell(c) if c != "" else None for c in row] for row in reader]
    return _record_array(columns, rows)
