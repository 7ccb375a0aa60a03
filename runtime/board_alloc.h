/* runtime/board_alloc.h — the allocator used by board.c, geo.c, scenario.c and draw.c.
 *
 * Every allocation of the board model goes through the project's funnel (runtime/mem.h), so the
 * allocation-failure hook reaches it too (tests/runtime/test_scenario.c, oom test). These
 * macros keep the call sites short and the switch in one place. Private to runtime/.
 */
#ifndef HON_BOARD_ALLOC_H
#define HON_BOARD_ALLOC_H

#include "mem.h"

#define BOARD_MALLOC(n) hon_malloc(n)
#define BOARD_REALLOC(p, n) hon_realloc((p), (n))
#define BOARD_FREE(p) hon_free(p)

#endif
