/* ember codegen: the C definitions a user operator brings along.
 *
 * An operator's expression may start with C definitions it calls (a
 * Python device function's translation), separated from the expression
 * by EM_PAR_PRELUDE_SEP (see ember/parallel.h). Keeping both in one string
 * keeps them in one cache key (the scan table hashes and compares the
 * whole string) and lets them pass through every layer that carries an
 * expression, select's predicate included, unchanged. */
#ifndef EMBER_CODEGEN_PAR_PRELUDE_H
#define EMBER_CODEGEN_PAR_PRELUDE_H

#include "codegen/linalg_table.h"

/* The expression without its definitions (expr itself when it has none;
 * NULL for NULL). */
const char *em_gen_par_expr(const char *expr);

/* Writes expr's definitions to b, then resets the line numbers so the
 * compiler's messages about the generated kernel do not point into the
 * user's file; writes nothing for an expression without definitions. */
void em_gen_par_prelude(em_gen_buf *b, const char *expr);

#endif
