/* tests/check_run.h — how every Check test executable of tests/ runs its suite: TAP on stdout
 * (meson's `protocol: 'tap'`), and the process exit status from the failures. One place, so
 * the unit tests of every component report the same way.
 */
#ifndef HON_TEST_CHECK_RUN_H
#define HON_TEST_CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

/* Runs suite s (taking it over: the runner frees it) and returns the process exit status. */
static inline int check_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_set_tap(sr, "-");
    srunner_run_all(sr, CK_SILENT);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
