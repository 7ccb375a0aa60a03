/* choice.c — choosing an edition and variant readings (hon.h: hon_set_edition, hon_edition,
 * hon_each_edition, hon_each_edition_use, hon_set_variant, hon_each_variant; a whole setting at once:
 * hon_apply_setting), over session.h. The choices are kept
 * by name, so they survive reloads while the names exist (session.c reads them; a load that
 * removes them forgets them: session_forget_stale_setting); a board
 * loaded with other counters than the new edition's is loaded again with its (view.h).
 */
#include <string.h>

#include "mem.h"
#include "near.h"
#include "program.h"
#include "session.h"
#include "view.h"

/* Selects edition `name` (NULL or "": the program's default). With `check`, the session's board
 * is built again under it (view_check_setting): when the edition would refuse it, the edition
 * before is kept and the board's status returned (its diagnostics reported). Without, a board
 * loaded with other counters than the edition's is loaded again with the edition's (view_rebind,
 * which drops a board that no longer loads), and its game restarts, as after a reload. */
static hon_status set_edition(hon_vm *vm, const char *name, bool check)
{
    if (!vm)
        return HON_ERR_NOT_FOUND;
    char *copy = NULL;
    if (name && *name) {
        if (model_find_edition(vm->pg->res, name) < 0)
            return HON_ERR_NOT_FOUND;
        if (!(copy = mem_strdup(name)))
            return HON_ERR_MEMORY;
    }
    char *was = vm->edition;
    vm->edition = copy;
    vm->choice_gen++;
    /* the edition's combined chunks now, not at its first answer (vm.md §5a) */
    prog_combine_edition(vm->pg, session_edition(vm));
    hon_status st = HON_OK;
    if (check)
        st = view_check_setting(vm);
    else if (vm->sc && vm->sc->counters != res_units_of(vm->pg->res, session_edition(vm))) {
        view_rebind(vm);
        session_new_game(vm);
    }
    if (st != HON_OK) { /* refused: the edition before */
        mem_free(vm->edition);
        vm->edition = was;
        vm->choice_gen++;
        return st;
    }
    mem_free(was);
    return HON_OK;
}

hon_status hon_set_edition(hon_vm *vm, const char *name)
{
    return set_edition(vm, name, true);
}

const char *hon_edition(const hon_vm *vm)
{
    if (!vm)
        return NULL;
    int32_t e = session_edition(vm);
    return e >= 0 ? vm->pg->res->editions[e].name : NULL;
}

void hon_each_edition(const hon_vm *vm,
                      void (*fn)(void *ud, const char *name, const char *parent, const char *title),
                      void *ud)
{
    if (!vm || !fn)
        return;
    const res_program *p = vm->pg->res;
    for (size_t i = 0; i < p->neditions; i++) {
        const res_edition *e = &p->editions[i];
        strbuf parents = { 0 };
        for (uint32_t k = 0; k < e->nparents; k++)
            sb_printf(&parents, "%s%s", k ? ", " : "", p->editions[e->parents[k]].name);
        fn(ud, e->name, e->nparents ? sb_str(&parents) : NULL, e->title);
        sb_free(&parents);
    }
}

void hon_each_edition_use(const hon_vm *vm, const char *name,
                          void (*fn)(void *ud, const char *module), void *ud)
{
    if (!vm || !name || !fn)
        return;
    const res_program *p = vm->pg->res;
    for (size_t i = 0; i < p->neditions; i++) {
        const res_edition *e = &p->editions[i];
        if (!e->name || strcmp(e->name, name) != 0 || !e->decl)
            continue;
        for (uint32_t k = 0; k < e->decl->list2.len; k++)
            if (e->decl->list2.items[k]->name)
                fn(ud, e->decl->list2.items[k]->name);
        return;
    }
}

/* Selects `reading` of `variant` (NULL: back to its default), the board not looked at. */
static hon_status set_variant(hon_vm *vm, const char *variant, const char *reading)
{
    if (!vm || !variant)
        return HON_ERR_NOT_FOUND;
    const res_program *p = vm->pg->res;
    int32_t v = model_find_variant(p, variant);
    if (v < 0)
        return HON_ERR_NOT_FOUND;
    if (reading && model_find_member(&p->enums[p->variants[v].enum_id], reading) < 0)
        return HON_ERR_NOT_FOUND;
    vm->choice_gen++;
    for (size_t c = 0; c < vm->nchoices; c++)
        if (strcmp(vm->choices[c].variant, variant) == 0) {
            if (!reading) { /* back to the default */
                mem_free(vm->choices[c].variant);
                mem_free(vm->choices[c].reading);
                vm->choices[c] = vm->choices[--vm->nchoices];
                return HON_OK;
            }
            char *copy = mem_strdup(reading);
            if (!copy)
                return HON_ERR_MEMORY;
            mem_free(vm->choices[c].reading);
            vm->choices[c].reading = copy;
            return HON_OK;
        }
    if (!reading)
        return HON_OK;
    if (!MEM_GROW(vm->choices, vm->nchoices, vm->choices_cap))
        return HON_ERR_MEMORY;
    session_choice ch = { mem_strdup(variant), mem_strdup(reading) };
    if (!ch.variant || !ch.reading) {
        mem_free(ch.variant);
        mem_free(ch.reading);
        return HON_ERR_MEMORY;
    }
    vm->choices[vm->nchoices++] = ch;
    return HON_OK;
}

hon_status hon_set_variant(hon_vm *vm, const char *variant, const char *reading)
{
    if (!vm || !variant)
        return HON_ERR_NOT_FOUND;
    char *was = NULL; /* the reading chosen before, if any */
    for (size_t c = 0; c < vm->nchoices; c++)
        if (strcmp(vm->choices[c].variant, variant) == 0 &&
            !(was = mem_strdup(vm->choices[c].reading)))
            return HON_ERR_MEMORY;
    hon_status st = set_variant(vm, variant, reading);
    if (st == HON_OK && (st = view_check_setting(vm)) != HON_OK)
        set_variant(vm, variant, was); /* refused by the board: the choice before */
    mem_free(was);
    return st;
}

void hon_each_variant(const hon_vm *vm,
                      void (*fn)(void *ud, const char *variant, const char *reading,
                                 const char *doc),
                      void *ud)
{
    if (!vm || !fn)
        return;
    const res_program *p = vm->pg->res;
    bool oom;
    int32_t *r = session_readings(vm, session_edition(vm), NULL, &oom);
    for (size_t v = 0; v < p->nvariants; v++) {
        const res_variant *var = &p->variants[v];
        uint32_t m = r ? (uint32_t)r[v] : var->dflt;
        fn(ud, var->name, p->enums[var->enum_id].members[m].name, var->doc);
    }
    mem_free(r);
}

/* One part of a setting: where it starts in the text and how long it is. */
typedef struct part {
    size_t at, len;
} part;

/* Where a setting's text stands: its source, line and the column of its first byte. */
typedef struct setting_at {
    uint32_t id, line, col;
} setting_at;

/* The span of part w of a setting's text standing at `at`. */
static ast_loc part_loc(setting_at at, part w)
{
    uint32_t col = at.col + (uint32_t)w.at;
    return (ast_loc){ at.id == UINT32_MAX ? 0 : at.id, at.line, col, at.line,
                      col + (w.len ? (uint32_t)w.len - 1 : 0) };
}

hon_status hon_apply_setting(hon_vm *vm, const char *setting, const char *where)
{
    if (!vm || !setting)
        return HON_ERR_NOT_FOUND;
    uint32_t id =
        diag_sources_add(&vm->sources, where ? where : "<setting>", setting, strlen(setting));
    return choice_apply_setting_at(vm, setting, id, 1, 1);
}

/* The edition (kind 'e'), variant ('v') or reading of variant `var` ('r') named nearest
 * `want`, close enough to be a slip (near.h), or NULL: "did you mean" in a setting's errors. */
static const char *nearest(const res_program *p, char kind, int32_t var, const char *want)
{
    near_search s;
    near_begin(&s, want);
    if (kind == 'e')
        for (size_t e = 0; e < p->neditions; e++)
            near_offer(&s, p->editions[e].name);
    else if (kind == 'v')
        for (size_t v = 0; v < p->nvariants; v++)
            near_offer(&s, p->variants[v].name);
    else
        for (size_t m = 0; m < p->enums[p->variants[var].enum_id].len; m++)
            near_offer(&s, p->enums[p->variants[var].enum_id].members[m].name);
    return near_result(&s);
}

#define HINT(h) (h) ? " (did you mean `" : "", (h) ? (h) : "", (h) ? "`?)" : ""

/* Writes the readings of variant var into buf (size n), ", " between them, cut short with "..."
 * when they do not fit; returns buf. */
static const char *readings_of(const res_program *p, int32_t var, char *buf, size_t n)
{
    const res_enum *e = &p->enums[p->variants[var].enum_id];
    size_t at = 0;
    buf[0] = '\0';
    for (size_t m = 0; m < e->len && at < n; m++) {
        int w = snprintf(buf + at, n - at, "%s%s", m ? ", " : "", e->members[m].name);
        if (w < 0 || (size_t)w >= n - at) {
            snprintf(buf + (n > 4 ? n - 4 : 0), n > 4 ? 4 : n, "...");
            break;
        }
        at += (size_t)w;
    }
    return buf;
}

hon_status choice_apply_setting_at(hon_vm *vm, const char *setting, uint32_t file, uint32_t line,
                                   uint32_t col)
{
    size_t len = strlen(setting);
    const setting_at pos = { file, line, col };
    const res_program *p = vm->pg->res;
    char name[256], reading[256];
    part ed = { 0, strcspn(setting, ",") };
    bool ok = true;
    snprintf(name, sizeof name, "%.*s", (int)ed.len, setting);
    if (ed.len && model_find_edition(p, name) < 0) {
        const char *h = nearest(p, 'e', -1, name);
        session_report_at(vm, E_SETTING_EDITION, part_loc(pos, ed), "no edition named '%s'%s%s%s",
                          name, HINT(h));
        ok = false;
    }
    /* every NAME=READING is checked before anything changes */
    for (size_t at = ed.len; ok && at < len;) {
        part item = { at + 1, strcspn(setting + at + 1, ",") };
        const char *eq = memchr(setting + item.at, '=', item.len);
        part v = { item.at, eq ? (size_t)(eq - setting) - item.at : item.len };
        part r = { v.at + v.len + 1, eq ? item.len - v.len - 1 : 0 };
        at = item.at + item.len;
        snprintf(name, sizeof name, "%.*s", (int)v.len, setting + v.at);
        snprintf(reading, sizeof reading, "%.*s", (int)r.len, setting + r.at);
        int32_t var = v.len ? model_find_variant(p, name) : -1;
        if (!item.len) /* under the comma before it and the one after it, when there is one */
            session_report_at(
                vm, E_SETTING_SYNTAX, part_loc(pos, (part){ item.at - 1, item.at < len ? 2 : 1 }),
                "a setting is EDITION,NAME=READING,...: nothing %s this comma%s",
                item.at < len ? "between" : "after", item.at < len ? " and the next" : "");
        else if (!eq || !v.len || !r.len)
            session_report_at(vm, E_SETTING_SYNTAX, part_loc(pos, item),
                              "a setting is EDITION,NAME=READING,...: '%.*s' is not NAME=READING",
                              (int)item.len, setting + item.at);
        else if (var < 0)
            session_report_at(vm, E_SETTING_VARIANT, part_loc(pos, v),
                              "no variant named '%s'%s%s%s", name, HINT(nearest(p, 'v', -1, name)));
        else if (model_find_member(&p->enums[p->variants[var].enum_id], reading) < 0) {
            char all[512];
            session_report_at(vm, E_SETTING_READING, part_loc(pos, r),
                              "variant %s has no reading '%s'%s%s%s; its readings: %s", name,
                              reading, HINT(nearest(p, 'r', var, reading)),
                              readings_of(p, var, all, sizeof all));
        } else
            continue;
        ok = false;
    }
    if (!ok)
        return HON_ERR_NOT_FOUND;
    for (size_t c = 0; c < vm->nchoices; c++) {
        mem_free(vm->choices[c].variant);
        mem_free(vm->choices[c].reading);
    }
    vm->nchoices = 0;
    vm->choice_gen++;
    snprintf(name, sizeof name, "%.*s", (int)ed.len, setting);
    hon_status st = set_edition(vm, name, false);
    for (size_t at = ed.len; st == HON_OK && at < len;) {
        size_t n = strcspn(setting + at + 1, ","), k = strcspn(setting + at + 1, "=");
        snprintf(name, sizeof name, "%.*s", (int)k, setting + at + 1);
        snprintf(reading, sizeof reading, "%.*s", (int)(n - k - 1), setting + at + k + 2);
        st = set_variant(vm, name, reading);
        at += n + 1;
    }
    return st;
}

#undef HINT
