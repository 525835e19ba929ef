# ember: the two commands a newcomer needs are `make demo` and `make test`.
# Both set up a virtual environment in .venv with what they need from the
# package registry, build ember into it, then run.

PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
BUILD  := build/c
WERROR ?= ON
JOBS   ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: demo test venv build install ctest pytest asan valgrind bench clean

demo: install
	$(VPY) examples/tour.py

test: install ctest pytest

$(VENV)/.ready:
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip
	$(VPY) -m pip install -q numpy pytest hypothesis cffi scikit-build-core cmake ninja \
	    scipy-openblas64 scipy 'pandas>=3.1' pyarrow scikit-learn \
	    'dask[array,dataframe]' distributed tqdm
	touch $@

venv: $(VENV)/.ready

# The C library and C tests, built with warnings as errors.
build: venv
	$(VENV)/bin/cmake -S . -B $(BUILD) -G Ninja -DEMBER_WERROR=$(WERROR) >/dev/null
	$(VENV)/bin/cmake --build $(BUILD) -j $(JOBS)

# The Python package, built by scikit-build-core without build isolation so
# it reuses the venv's tools (the GPU machine has no registry either).
install: venv
	PATH=$(CURDIR)/$(VENV)/bin:$$PATH $(VPY) -m pip install -q --no-build-isolation --no-deps \
	    -Ccmake.define.EMBER_WERROR=$(WERROR) .

ctest: build
	cd $(BUILD) && ../../$(VENV)/bin/ctest --output-on-failure -j $(JOBS)

pytest: install
	cd tests/python && ../../$(VPY) -m pytest -q

# AddressSanitizer and UBSan over the C tests and the Python tests.
# intercept_tls_get_addr=0: GCC 13's and older sanitizer runtimes can take
# a dynamic TLS block of today's glibc for a 2.19 one and crash the leak
# checker's tracer at exit ("Tracer caught signal 11"), as test_fault_inject
# did here every time; with it off the leak check runs to the end.
asan: venv
	$(VENV)/bin/cmake -S . -B build/asan -G Ninja -DEMBER_SANITIZE=ON -DEMBER_WERROR=$(WERROR) >/dev/null
	$(VENV)/bin/cmake --build build/asan -j $(JOBS)
	cd build/asan && ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0 \
	    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	    ../../$(VENV)/bin/ctest --output-on-failure
	tools/asan_pytest.sh

valgrind: build
	valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 \
	    $(BUILD)/test_leakloop

bench: install
	$(VPY) bench/run.py

clean:
	rm -rf build $(VENV)
