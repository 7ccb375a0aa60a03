/* embed.c — the small C program tests/install/run.py builds against an installed hon with
 * `pkg-config --cflags --libs hon` (include/hon.h and libhon, nothing else): it loads the
 * bundled rules and a bundled board from hon_bundle_dir() as `hon --board` would, evaluates
 * each argument and prints "data: DIR", then one answer a line. run.py compares the answers
 * with the build tree's `hon eval`. Exit status 0, or 1 on any failure (reported on stderr).
 */
#include <hon.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    const char *data = hon_bundle_dir();
    char rules[4096], exps[4096], board[4096];
    int status = 0;

    snprintf(rules, sizeof rules, "%s/rules", data);
    snprintf(exps, sizeof exps, "%s/expansions", data);
    snprintf(board, sizeof board, "%s/examples/boards/hill_contour.scn", data);
    printf("data: %s\n", data);

    hon_vm *vm = hon_vm_new(NULL);
    if (!vm || hon_load_dir(vm, rules) != HON_OK || hon_load_dir(vm, exps) != HON_OK ||
        hon_load_board(vm, board) != HON_OK) {
        fprintf(stderr, "embed: cannot load the rules and board of %s\n", data);
        hon_vm_free(vm);
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        hon_answer *a = NULL;
        if (hon_eval(vm, argv[i], "<embed>", &a) == HON_OK) {
            printf("%s\n", hon_answer_text(a));
        } else {
            fprintf(stderr, "embed: '%s' failed\n", argv[i]);
            status = 1;
        }
        hon_answer_free(a);
    }
    hon_vm_free(vm);
    return status;
}
