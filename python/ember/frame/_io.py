"""Files: read_csv, to_csv, read_parquet, to_parquet, read_json."""


class IOMethods:
    """to_csv, to_parquet and to_json of Series and DataFrame."""
