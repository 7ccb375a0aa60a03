/* disasm.c — the bytecode listing of a chunk (hon_disassemble, the bytecode golden tests in
 * tests/golden/bytecode/). One line per instruction: offset, source line:col when it changes,
 * opcode name, operands, and a comment naming constants, types, callees and jump targets. Each
 * operand is printed by its kind (opcodes.h, OPERAND): no opcode is a case of its own here.
 */
#include "disasm.h"

#include <inttypes.h>

#include "play.h"

/* The operand of kind k among the n operands of an instruction, or NULL. */
static const uint32_t *operand_of(const uint8_t *kinds, const uint32_t *arg, size_t n, op_kind k)
{
    for (size_t i = 0; i < n; i++)
        if (kinds[i] == k)
            return &arg[i];
    return NULL;
}

/* Operand i of an instruction (its n operands arg, their kinds, its end `next`) as its number
 * into num and what it names, if anything, into note (the instruction's comment). */
static void operand(const res_program *p, const chunk *c, const uint8_t *kinds, const uint32_t *arg,
                    size_t n, size_t i, size_t next, strbuf *num, strbuf *note)
{
    const val_env env = { p, NULL, NULL, NULL };
    char tbuf[160];
    uint32_t v = arg[i];
    const uint32_t *t;
    switch ((op_kind)kinds[i]) {
    case OPK_INT:
    case OPK_JUMP:
    case OPK_EXIT: sb_printf(num, " %" PRId32, (int32_t)v); break;
    case OPK_COLUMN:
    case OPK_TEXT: /* ~0: none */
        if (v == UINT32_MAX)
            sb_puts(num, " -1");
        else
            sb_printf(num, " %" PRIu32, v);
        break;
    default: sb_printf(num, " %" PRIu32, v);
    }
    if (note->len && (kinds[i] == OPK_INT || kinds[i] == OPK_JUMP || kinds[i] == OPK_EXIT))
        sb_puts(note, ", "); /* an int and a jump (AGG_MIN, KEPT): "; 0, -> 0041" */
    switch ((op_kind)kinds[i]) {
    case OPK_CONST:
        if (v < c->nk)
            val_print(&env, c->k[v], note);
        break;
    case OPK_INT: sb_printf(note, "%" PRId32, (int32_t)v); break;
    case OPK_JUMP: sb_printf(note, "-> %04" PRId64, (int64_t)next + (int32_t)v); break;
    case OPK_EXIT: sb_printf(note, "done -> %04" PRId64, (int64_t)next + (int32_t)v); break;
    case OPK_TYPE: sb_puts(note, type_name(p, v, tbuf, sizeof tbuf)); break;
    case OPK_TABLE:
        if (v < p->ntables)
            sb_puts(note, p->tables[v].name);
        break;
    case OPK_COLUMN: /* after its table's name, when the table has named columns */
        t = operand_of(kinds, arg, n, OPK_TABLE);
        if (t && *t < p->ntables && v != UINT32_MAX && !p->tables[*t].single &&
            v < p->tables[*t].ncols)
            sb_printf(note, ".%s", p->tables[*t].cols[v].name);
        break;
    case OPK_SLOT:
        if (v < p->nslots)
            sb_puts(note, p->slots[v].name);
        break;
    case OPK_SET_SLOT: /* after the effect's name, for `set` */
        t = operand_of(kinds, arg, n, OPK_EFFECT);
        if (t && *t == FX_SET && v < p->nslots)
            sb_printf(note, " .%s", p->slots[v].name);
        break;
    case OPK_UNIT_NAME:
        if (v < c->nstrs)
            sb_printf(note, "$%s", c->strs[v]);
        break;
    case OPK_TEXT:
        if (v < c->nstrs)
            sb_printf(note, "\"%s\"", c->strs[v]);
        break;
    case OPK_BUILTIN: sb_puts(note, builtin_name(v)); break;
    case OPK_VARIANT:
        if (v < p->nvariants)
            sb_puts(note, p->variants[v].name);
        break;
    case OPK_FN:
        if (v < p->nfns)
            sb_puts(note, p->fns[v].name);
        break;
    case OPK_QUERY:
    case OPK_EVENT:
        if (v < p->nqueries)
            sb_puts(note, p->queries[v].name);
        break;
    case OPK_EFFECT: sb_puts(note, play_fx_name(v)); break;
    case OPK_CONJ:
        if (v < c->nconj && chunk_conj_text(c, c->conj[v].text))
            sb_printf(note, "%s", chunk_conj_text(c, c->conj[v].text));
        break;
    default: /* a slot, a field, a count, a result type: the number says it */ break;
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
        strbuf note = { 0 };
        for (size_t i = 0; i < n; i++)
            operand(p, c, op_kinds[op], arg, n, i, pc + 1 + n, &b, &note);
        if (note.len)
            sb_printf(&b, "  ; %s", sb_str(&note));
        sb_free(&note);
        sb_putc(&b, '\n');
        pc += 1 + n;
    }
    fputs(sb_str(&b), out);
    sb_free(&b);
}
