"""The packages of ember.ml import their estimators on first use: this
gives each one the module __getattr__ that does it."""
import importlib
import sys


def lazy_names(package, where):
    """A __getattr__ for `package`: name -> the attribute `name` of the
    module where[name] (a submodule of package, or an absolute path when
    it has a dot), or that submodule itself when it is named `name`; the
    value is kept in the package so the lookup happens once."""
    def __getattr__(name):
        path = where.get(name)
        if path is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        mod = importlib.import_module(path if "." in path else f"{package}.{path}")
        value = mod if path.rsplit(".", 1)[-1] == name else getattr(mod, name)
        setattr(sys.modules[package], name, value)
        return value
    return __getattr__
