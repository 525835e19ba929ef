/* ember: the GPU computing stack with a C core. One header for the C API. */
#ifndef EMBER_H
#define EMBER_H

#define EMBER_VERSION_MAJOR 0
#define EMBER_VERSION_MINOR 1
#define EMBER_VERSION_PATCH 0
#define EMBER_VERSION_STRING "0.1.0"

#include "ember/status.h"
#include "ember/dtype.h"
#include "ember/shape.h"
#include "ember/util.h"
#include "ember/diskcache.h"
#include "ember/runtime.h"
#include "ember/gridsync.h"
#include "ember/array.h"
#include "ember/ufunc.h"
#include "ember/fuse.h"
#include "ember/reduce.h"
#include "ember/linalg.h"
#include "ember/lapack.h"
#include "ember/index.h"
#include "ember/manip.h"
#include "ember/parallel.h"
#include "ember/scan.h"
#include "ember/sort.h"
#include "ember/histogram.h"
#include "ember/random.h"
#include "ember/ckernel.h"
#include "ember/profile.h"

#endif
