/* disasm.c — the bytecode listing of a chunk (hon_disassemble, the bytecode golden tests in
 * tests/golden/bytecode/). One line per instruction: offset, source line:col when it changes,
 * opcode name, operands, and a comment naming constants, types, callees and jump targets.
 */
#include "disasm.h"

#include <inttypes.h>
#include "play.h"

static void comment(const res_program *p, const chunk *c, op_code op, const uint32_t *arg,
                    size_t next, strbuf *out)
{
    char tbuf[160];
    const val_env env = { p, NULL };
    switch (op) {
    case OP_CONST:
        if (arg[0] < c->nk) {
            sb_puts(out, "  ; ");
            val_print(&env, c->k[arg[0]], out);
        }
        break;
    case OP_UNIT_NAMED:
        if (arg[0] < c->nstrs)
            sb_printf(out, "  ; $%s", c->strs[arg[0]]);
        break;
    case OP_BOARD:
        sb_printf(out, "  ; %s", res_builtin_name(arg[0]));
        break;
    case OP_INT:
        sb_printf(out, "  ; %" PRId32, (int32_t)arg[0]);
        break;
    case OP_JUMP: case OP_JUMP_IF_FALSE: case OP_JUMP_IF_TRUE:
    case OP_JUMP_IF_FALSE_KEEP: case OP_JUMP_IF_TRUE_KEEP:
        sb_printf(out, "  ; -> %04" PRId64, (int64_t)next + (int32_t)arg[0]);
        break;
    case OP_FOR_NEXT:
        sb_printf(out, "  ; done -> %04" PRId64, (int64_t)next + (int32_t)arg[3]);
        break;
    case OP_MAKE_LIST: case OP_MAKE_SET: case OP_MAKE_RECORD: case OP_ROLL_N:
        sb_printf(out, "  ; %s", res_type_name(p, arg[0], tbuf, sizeof tbuf));
        break;
    case OP_TABLE:
        if (arg[0] < p->ntables) {
            const res_table *t = &p->tables[arg[0]];
            if (arg[2] == UINT32_MAX || t->single || arg[2] >= t->ncols)
                sb_printf(out, "  ; %s", t->name);
            else
                sb_printf(out, "  ; %s.%s", t->name, t->cols[arg[2]].name);
        }
        break;
    case OP_UNIT_VALUE:
        if (arg[0] < p->nslots)
            sb_printf(out, "  ; %s", p->slots[arg[0]].name);
        break;
    case OP_VARIANT:
        if (arg[0] < p->nvariants)
            sb_printf(out, "  ; %s", p->variants[arg[0]].name);
        break;
    case OP_CALL_FN:
        if (arg[0] < p->nfns)
            sb_printf(out, "  ; %s", p->fns[arg[0]].name);
        break;
    case OP_CALL_QUERY:
    case OP_RAISE:
        if (arg[0] < p->nqueries)
            sb_printf(out, "  ; %s", p->queries[arg[0]].name);
        break;
    case OP_EFFECT:
        sb_printf(out, "  ; %s", play_fx_name(arg[0]));
        if (arg[0] == FX_SET && arg[2] < p->nslots)
            sb_printf(out, " .%s", p->slots[arg[2]].name);
        break;
    case OP_CHOOSE: case OP_NOTE: case OP_FAIL:
        if (arg[0] < c->nstrs)
            sb_printf(out, "  ; \"%s\"", c->strs[arg[0]]);
        break;
    case OP_LIST_PUSH:
        break;
    default:
        break;
    }
}

void disasm_chunk(const res_program *p, const chunk *c, FILE *out)
{
    strbuf b = { 0 };
    sb_printf(&b, "%s: %u param%s, %u local%s, stack %u\n", c->name, c->nparams,
              c->nparams == 1 ? "" : "s", c->nlocals, c->nlocals == 1 ? "" : "s", c->max_stack);
    uint32_t last_line = 0, last_col = 0;
    for (size_t pc = 0; pc < c->len;) {
        uint32_t op = c->code[pc];
        if (op >= OP__COUNT) {
            sb_printf(&b, "%04zu  <bad opcode %" PRIu32 ">\n", pc, op);
            break;
        }
        size_t n = op_operands[op];
        if (pc + 1 + n > c->len) {
            sb_printf(&b, "%04zu  <truncated %s>\n", pc, op_names[op]);
            break;
        }
        ast_loc loc = chunk_loc(c, pc);
        if (loc.line != last_line || loc.col != last_col) {
            char where[32];
            snprintf(where, sizeof where, "%u:%u", loc.line, loc.col);
            sb_printf(&b, "%04zu  %-7s %s", pc, where, op_names[op]);
            last_line = loc.line;
            last_col = loc.col;
        } else {
            sb_printf(&b, "%04zu  %-7s %s", pc, "", op_names[op]);
        }
        const uint32_t *arg = &c->code[pc + 1];
        for (size_t i = 0; i < n; i++) {
            bool is_jump = (i == n - 1) &&
                           (op == OP_JUMP || op == OP_JUMP_IF_FALSE || op == OP_JUMP_IF_TRUE ||
                            op == OP_JUMP_IF_FALSE_KEEP || op == OP_JUMP_IF_TRUE_KEEP ||
                            op == OP_FOR_NEXT);
            if (op == OP_INT || is_jump || (op == OP_TABLE && i == 2 && arg[i] == UINT32_MAX) ||
                (op == OP_CHOOSE && arg[i] == UINT32_MAX))
                sb_printf(&b, " %" PRId32, (int32_t)arg[i]);
            else
                sb_printf(&b, " %" PRIu32, arg[i]);
        }
        comment(p, c, (op_code)op, arg, pc + 1 + n, &b);
        sb_putc(&b, '\n');
        pc += 1 + n;
    }
    fputs(sb_str(&b), out);
    sb_free(&b);
}
