/* ember codegen: the C definitions a user operator brings along (see
 * par_prelude.h). */
#include <string.h>

#include "codegen/par_prelude.h"
#include "ember/parallel.h"

const char *em_gen_par_expr(const char *expr)
{
    const char *p = expr ? strchr(expr, EM_PAR_PRELUDE_SEP) : NULL;
    return p ? p + 1 : expr;
}

void em_gen_par_prelude(em_gen_buf *b, const char *expr)
{
    const char *p = expr ? strchr(expr, EM_PAR_PRELUDE_SEP) : NULL;
    if (!p)
        return;
    /* the translator's #line directives name the Python file */
    em_gen_buf_printf(b, "%.*s\n#line 1 \"ember-parallel-kernel\"\n",
                      (int)(p - expr), expr);
}
