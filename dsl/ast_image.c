/* ast_image.c — a parsed file's tree as bytes and back: what the start-up cache keeps of a
 * parse (interp/cache.c), so that a file whose text did not change is not parsed again.
 *
 * The layout (native byte order and sizes: an image is read only by the build that wrote it,
 * the key says which, ast_image.h):
 *
 *   header  "HONAST\0\1", key (u64), sum (u64: ast_image_hash of the body), body_len (u32),
 *           strings_len (u32), ndecls (u32), text_len (u32)
 *   body    strings: every string of the tree, NUL-terminated, end to end (strings_len bytes,
 *           a multiple of 4), then a word M, the bodies' sum (u64: ast_image_hash of the
 *           bodies' words, seeded with the key), M words: the declarations, each a node, and
 *           two words N and V, how many nodes and how many vectors' items they hold (their
 *           bodies not counted: what a reader allocates for them, all at once), then the
 *           bodies' words (below). The header's sum covers the strings and the words before
 *           the bodies.
 *   node    u32 words: a head word, then what it says is there. The head: bits 0-7 the kind
 *           + 1 (a head of 0 is no node), bits 8-15 the op, bit 16 set for a loc in file 0
 *           with no position (else the loc is in the file itself), bits 17-21 which of name,
 *           name2, ref, title, doc are there, bit 22 an ival (not 0), bit 23 parens (not 0),
 *           bits 24-26 which of the children a, b, c are there, bits 27-30 which of list,
 *           list2, params, cites are not empty. Then the loc's line, col, end_line, end_col;
 *           each string there (its offset in the strings); the ival (low, high); the parens;
 *           each child there (a node); each vector there (its length, then its nodes).
 *   bodies  A top-level rule or fn (bit 31 of its head set) keeps its body apart: after the
 *           children and vectors that are not its body, a word giving where its body starts
 *           among the bodies (each starts where the last ended, in the declarations' order);
 *           there, a word L, then L words: its head again and the children and vectors of its
 *           body (a rule's a, b, c and list: its guard, answer, block and lets; a fn's b). A
 *           reader can leave the bodies unread and unsummed (ast_image_read_as, lazy) and
 *           check their sum and decode one when it is first resolved (ast_body_ready;
 *           bench.md §9).
 *
 * Reading checks everything it reads (the header, the sum, every kind, offset, length and the
 * depth), so a damaged or foreign image is refused, never followed. Annotations are not kept:
 * a read tree is as the parser made it. */
#include "ast_image.h"

#include <errno.h>
#include <string.h>

#define XXH_INLINE_ALL /* xxHash header-only (libxxhash-dev): no library to link */
#include <xxhash.h>

#include "arena.h"
#include "file.h"
#include "mem.h"

#define MAGIC      "HONAST\0\1"
#define HEADER_LEN 40
/* the head's fields (see the layout above) */
#define H_OP_SHIFT 8
#define H_NOWHERE  (1u << 16)
#define H_STRING   17 /* + 0..4: name, name2, ref, title, doc */
#define H_IVAL     (1u << 22)
#define H_PARENS   (1u << 23)
#define H_CHILD    24         /* + 0..2: a, b, c */
#define H_VEC      27         /* + 0..3: list, list2, params, cites */
#define H_BODY     (1u << 31) /* a top-level rule or fn: its body kept apart */
/* The seven places of a node's children and vectors: a, b, c, then list, list2, params, cites
 * (bit i of a head at H_CHILD + i). Which of them are the body of a top-level declaration. */
#define SLOT_COUNT  7
#define BODY_RULE   (1u << 0 | 1u << 1 | 1u << 2 | 1u << 3) /* guard, answer, block, lets */
#define BODY_FN     (1u << 1)                               /* its expression */
#define SLOTS_OF(h) ((h) >> H_CHILD & 0x7Fu)                /* the places a head says are there */
/* the last operator of ast_op; an image naming a later one is refused (then parsed again) */
#define LAST_OP AST_REV_COUNTER

uint64_t ast_image_hash(const void *p, size_t n, uint64_t seed)
{
    return XXH64(p, n, seed); /* xxHash's own, inlined (XXH_INLINE_ALL): bench.md §9 */
}

/* ---------------------------------------------------------------- writing */

typedef struct writer {
    strbuf strings;
    uint32_t *words; /* the nodes' words, n of them (room for cap) */
    size_t n, cap;
    uint32_t *bwords; /* the bodies' words, bn of them (room for bcap): swapped with words
                         while a body is written */
    size_t bn, bcap;
    size_t nodes, items; /* the nodes and vectors' items written outside the bodies (N, V) */
    bool in_body;        /* the bodies' words are being written (swapped in) */
    uint32_t file_id;
    bool bad; /* memory ran out, or something the layout cannot hold */
} writer;

static void put_word(writer *w, uint32_t x)
{
    if (w->n == w->cap && !w->bad) {
        size_t cap = w->cap ? 2 * w->cap : 4096;
        uint32_t *words = cap < SIZE_MAX / 8 ? mem_realloc(w->words, cap * sizeof *words) : NULL;
        if (!words)
            w->bad = true;
        else {
            w->words = words;
            w->cap = cap;
        }
    }
    if (w->n < w->cap)
        w->words[w->n++] = x;
}

/* Swaps the words being written: the declarations' and the bodies'. */
static void swap_words(writer *w)
{
    uint32_t *words = w->words;
    size_t n = w->n, cap = w->cap;
    w->words = w->bwords;
    w->n = w->bn;
    w->cap = w->bcap;
    w->bwords = words;
    w->bn = n;
    w->bcap = cap;
    w->in_body = !w->in_body;
}

/* A string (not NULL): its offset in the strings, where it is appended. */
static void put_string(writer *w, const char *s)
{
    size_t off = w->strings.len;
    if (off >= UINT32_MAX) {
        w->bad = true;
        return;
    }
    put_word(w, (uint32_t)off);
    sb_putn(&w->strings, s, strlen(s) + 1);
}

static void put_node(writer *w, const ast_node *n, bool top);

static void put_vec(writer *w, const ast_vec *v)
{
    put_word(w, v->len);
    if (!w->in_body)
        w->items += v->len;
    for (uint32_t i = 0; i < v->len; i++)
        put_node(w, v->items[i], false);
}

/* The places of a declaration of kind k that are its body (kept apart at the top level). */
static uint32_t body_slots(ast_kind k)
{
    return k == AST_RULE ? BODY_RULE : k == AST_FN ? BODY_FN : 0;
}

/* Writes the places of n in `which` that are there, in their order. */
static void put_slots(writer *w, const ast_node *n, uint32_t which)
{
    const ast_node *kids[3] = { n->a, n->b, n->c };
    const ast_vec *vecs[4] = { &n->list, &n->list2, &n->params, &n->cites };
    for (int i = 0; i < 3; i++)
        if (which & 1u << i && kids[i])
            put_node(w, kids[i], false);
    for (int i = 0; i < 4; i++)
        if (which & 1u << (3 + i) && vecs[i]->len)
            put_vec(w, vecs[i]);
}

static void put_node(writer *w, const ast_node *n, bool top)
{
    if (!n) {
        put_word(w, 0);
        return;
    }
    if (!w->in_body)
        w->nodes++;
    const char *strs[5] = { n->name, n->name2, n->ref, n->title, n->doc };
    const ast_node *kids[3] = { n->a, n->b, n->c };
    const ast_vec *vecs[4] = { &n->list, &n->list2, &n->params, &n->cites };
    uint32_t head = ((uint32_t)n->kind + 1) | (uint32_t)n->op << H_OP_SHIFT;
    if ((uint32_t)n->kind >= 255 || (uint32_t)n->op > 255)
        w->bad = true;
    if (n->loc.file != w->file_id) {
        if (n->loc.file == 0 && n->loc.line == 0)
            head |= H_NOWHERE;
        else
            w->bad = true; /* the parser never places a node in another file */
    }
    for (int i = 0; i < 5; i++)
        head |= strs[i] ? 1u << (H_STRING + i) : 0;
    head |= n->ival ? H_IVAL : 0;
    head |= n->parens ? H_PARENS : 0;
    for (int i = 0; i < 3; i++)
        head |= kids[i] ? 1u << (H_CHILD + i) : 0;
    for (int i = 0; i < 4; i++)
        head |= vecs[i]->len ? 1u << (H_VEC + i) : 0;
    uint32_t body = top ? body_slots(n->kind) : 0;
    if (n->body) /* a tree read lazily is written once its bodies are decoded */
        w->bad = true;
    head |= body ? H_BODY : 0;
    put_word(w, head);
    put_word(w, n->loc.line);
    put_word(w, n->loc.col);
    put_word(w, n->loc.end_line);
    put_word(w, n->loc.end_col);
    for (int i = 0; i < 5; i++)
        if (strs[i])
            put_string(w, strs[i]);
    if (n->ival) {
        uint64_t iv = (uint64_t)n->ival;
        put_word(w, (uint32_t)iv);
        put_word(w, (uint32_t)(iv >> 32));
    }
    if (n->parens)
        put_word(w, n->parens);
    put_slots(w, n, ~body);
    if (body) { /* its place among the bodies, then the body there */
        if (w->bn >= UINT32_MAX)
            w->bad = true;
        put_word(w, (uint32_t)w->bn);
        swap_words(w);
        size_t at = w->n; /* the length's word, filled below */
        put_word(w, 0);
        put_word(w, head);
        put_slots(w, n, body);
        if (w->n - at - 1 > UINT32_MAX)
            w->bad = true;
        else if (at < w->n)
            w->words[at] = (uint32_t)(w->n - at - 1);
        swap_words(w);
    }
}

bool ast_image_write(const ast_file *f, uint64_t key, strbuf *out)
{
    writer w = { .file_id = f->file_id };
    for (int i = 0; i < 3; i++) /* the declarations' length and the bodies' sum, set below */
        put_word(&w, 0);
    for (uint32_t i = 0; i < f->decls.len; i++)
        put_node(&w, f->decls.items[i], true);
    if (w.nodes > UINT32_MAX || w.items > UINT32_MAX)
        w.bad = true;
    put_word(&w, (uint32_t)w.nodes); /* N and V, the last of the declarations' words */
    put_word(&w, (uint32_t)w.items);
    while (w.strings.len % 4)
        sb_putc(&w.strings, '\0');
    size_t words_len = w.n * sizeof *w.words, bodies_len = w.bn * sizeof *w.bwords;
    bool ok = !w.bad && !w.strings.oom && f->text_len <= UINT32_MAX && w.n >= 5 &&
              w.n - 3 <= UINT32_MAX && w.strings.len + words_len + bodies_len <= UINT32_MAX;
    if (ok) {
        uint64_t bsum = ast_image_hash(w.bwords ? (const void *)w.bwords : "", bodies_len, key);
        w.words[0] = (uint32_t)(w.n - 3);
        memcpy(w.words + 1, &bsum, sizeof bsum);
        uint32_t body_len = (uint32_t)(w.strings.len + words_len + bodies_len);
        uint32_t nums[4] = { body_len, (uint32_t)w.strings.len, f->decls.len,
                             (uint32_t)f->text_len };
        uint64_t sum = ast_image_hash(w.strings.s ? w.strings.s : "", w.strings.len, key);
        sum = ast_image_hash(w.words, words_len, sum);
        sb_putn(out, MAGIC, 8);
        sb_putn(out, (const char *)&key, 8);
        sb_putn(out, (const char *)&sum, 8);
        sb_putn(out, (const char *)nums, sizeof nums);
        if (w.strings.len)
            sb_putn(out, w.strings.s, w.strings.len);
        sb_putn(out, (const char *)w.words, words_len);
        if (bodies_len)
            sb_putn(out, (const char *)w.bwords, bodies_len);
        ok = !out->oom;
    }
    sb_free(&w.strings);
    mem_free(w.bwords);
    mem_free(w.words);
    return ok;
}

/* ---------------------------------------------------------------- reading */

typedef struct reader {
    ast_file *f;
    const unsigned char *words;
    size_t nwords, at;
    const char *strings; /* the image's, borrowed */
    uint32_t strings_len;
    size_t bodies_at, bodies_n; /* the bodies' words: where they start, how many */
    size_t next_body;           /* where the next declaration's body must start among them */
    bool lazy;                  /* the top-level bodies passed over, left for ast_body_ready */
    bool bad;
    ast_node *pool; /* nodes taken from the arena together, not used yet */
    size_t pool_left;
    /* exact: the declarations' nodes and vectors' items are taken from these, allocated at
     * once for the N and V the image says (the bodies' from the pool as they are decoded) */
    bool exact;
    ast_node *nodes;
    ast_node **items;
    size_t nodes_left, items_left;
} reader;

static uint32_t get_word(reader *r)
{
    if (r->at >= r->nwords) {
        r->bad = true;
        return 0;
    }
    uint32_t x;
    memcpy(&x, r->words + 4 * r->at++, sizeof x);
    return x;
}

/* The string at offset x of the strings (checked: inside them; they end in a NUL). */
static const char *string_at(reader *r, uint32_t x)
{
    if (x >= r->strings_len) {
        r->bad = true;
        return NULL;
    }
    return r->strings + x;
}

static ast_node *get_node(reader *r, unsigned depth);

/* Reads a vector's length and items into v (an array of exactly that many; not empty). */
static void get_vec(reader *r, ast_vec *v, unsigned depth)
{
    uint32_t len = get_word(r);
    if (r->bad)
        return;
    if (!len || len > r->nwords - r->at) { /* every item takes a word at least */
        r->bad = true;
        return;
    }
    if (r->exact) { /* the image said how many there are: more is damage */
        if (len > r->items_left) {
            r->bad = true;
            return;
        }
        v->items = r->items;
        r->items += len;
        r->items_left -= len;
    } else {
        v->items = arena_alloc(r->f->arena, (size_t)len * sizeof *v->items);
    }
    if (!v->items) {
        r->bad = true;
        return;
    }
    v->cap = len;
    for (uint32_t i = 0; i < len && !r->bad; i++)
        v->items[v->len++] = get_node(r, depth + 1);
}

/* Room for a node in the tree's arena (uninitialised; NULL when memory runs out), its head
 * read: taken from nodes asked of the arena POOL_NODES at a time (one arena_alloc a node was
 * some 35 instructions, 9,000 nodes at each start: bench.md §9), never more than the words
 * left can hold (every node takes five words at least: its head and its place), so that a
 * small body decoded alone does not leave a pool unused behind it. */
enum {
    POOL_NODES = 16
};
static ast_node *new_node(reader *r)
{
    if (r->exact) { /* the image said how many there are: more is damage */
        if (!r->nodes_left)
            return NULL;
        r->nodes_left--;
        return r->nodes++;
    }
    if (!r->pool_left) {
        size_t most = 1 + (r->nwords - r->at) / 5;
        size_t k = most < POOL_NODES ? most : POOL_NODES;
        r->pool = arena_alloc(r->f->arena, k * sizeof *r->pool);
        if (!r->pool)
            return NULL;
        r->pool_left = k;
    }
    r->pool_left--;
    return r->pool++;
}

/* A new node of the head's kind and op with the fields that come before its children (the
 * loc, the strings, the ival, the parens); NULL when they are out of bounds. Kept apart from
 * get_node, which recurses, so that get_node's frame stays small. */
static __attribute__((noinline)) ast_node *get_fields(reader *r, uint32_t head)
{
    /* how many of the five strings are there: the bits set in five bits */
    static const uint8_t ones[32] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                      1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5 };
    uint32_t kind = (head & 0xFF) - 1, op = (head >> H_OP_SHIFT) & 0xFF;
    size_t words = 4u + ones[(head >> H_STRING) & 0x1F] + (head & H_IVAL ? 2u : 0u) +
                   (head & H_PARENS ? 1u : 0u);
    if (kind >= (uint32_t)AST_KIND_COUNT || op > (uint32_t)LAST_OP ||
        ((head & H_BODY) && !body_slots((ast_kind)kind)) || r->nwords - r->at < words)
        return NULL;
    ast_node *n = new_node(r);
    if (!n)
        return NULL;
    *n = (ast_node){ .kind = (ast_kind)kind, .op = (ast_op)op, .an.slot = -1 };
    uint32_t x[4 + 5 + 2 + 1];                     /* the words counted above, all there */
    if (r->nwords - r->at >= sizeof x / sizeof *x) /* a copy of fixed size: a few moves */
        memcpy(x, r->words + 4 * r->at, sizeof x);
    else
        memcpy(x, r->words + 4 * r->at, 4 * words);
    r->at += words;
    n->loc = (ast_loc){ head & H_NOWHERE ? 0 : r->f->file_id, x[0], x[1], x[2], x[3] };
    const uint32_t *q = x + 4;
    if (head & 1u << H_STRING)
        n->name = string_at(r, *q++);
    if (head & 1u << (H_STRING + 1))
        n->name2 = string_at(r, *q++);
    if (head & 1u << (H_STRING + 2))
        n->ref = string_at(r, *q++);
    if (head & 1u << (H_STRING + 3))
        n->title = string_at(r, *q++);
    if (head & 1u << (H_STRING + 4))
        n->doc = string_at(r, *q++);
    if (head & H_IVAL) {
        n->ival = (int64_t)((uint64_t)q[0] | (uint64_t)q[1] << 32);
        q += 2;
    }
    if (head & H_PARENS)
        n->parens = *q;
    return r->bad ? NULL : n;
}

/* Reads into n the places in `which` (children and vectors) that the head says are there. */
static void get_slots(reader *r, ast_node *n, uint32_t which, unsigned depth)
{
    /* only the places there, in their order (most nodes have none, one or two) */
    for (uint32_t m = which & 0x7Fu; m && !r->bad; m &= m - 1) {
        int i = __builtin_ctz(m);
        if (i < 3) {
            ast_node *c = get_node(r, depth + 1);
            if (!c) /* said to be there */
                r->bad = true;
            *(i == 0 ? &n->a : i == 1 ? &n->b : &n->c) = c;
        } else {
            get_vec(r,
                    i == 3   ? &n->list
                    : i == 4 ? &n->list2
                    : i == 5 ? &n->params
                             : &n->cites,
                    depth);
        }
    }
}

/* Reads the body of top-level declaration n (kept apart: the layout), its length's word next:
 * into n, or with r->lazy only its place (n->body), passed over. */
static void get_body(reader *r, ast_node *n, uint32_t head)
{
    uint32_t off = get_word(r);
    /* the bodies follow one another in the declarations' order, each where the last ended */
    if (r->bad || off != r->next_body || off >= r->bodies_n) {
        r->bad = true;
        return;
    }
    size_t b = r->bodies_at + off; /* its length's word */
    uint32_t len;
    memcpy(&len, r->words + 4 * b, sizeof len);
    if (!len || len > r->bodies_n - off - 1 || b + 2 > UINT32_MAX) {
        r->bad = true;
        return;
    }
    r->next_body = off + 1 + (size_t)len;
    if (r->lazy) {
        n->body = (uint32_t)b + 2; /* 1 + the word of its head again */
        return;
    }
    size_t at = r->at, nwords = r->nwords;
    bool exact = r->exact; /* a body's nodes are not among the N and V: from the pool */
    r->exact = false;
    r->at = b + 1;
    r->nwords = b + 1 + len; /* its reading bounded by its own words */
    if (get_word(r) != head) /* the head again */
        r->bad = true;
    else
        get_slots(r, n, SLOTS_OF(head) & body_slots(n->kind), 0);
    if (r->at != r->nwords)
        r->bad = true;
    r->at = at;
    r->nwords = nwords;
    r->exact = exact;
}

static ast_node *get_node(reader *r, unsigned depth)
{
    uint32_t head = get_word(r);
    if (r->bad || !head)
        return NULL;
    ast_node *n = depth > AST_IMAGE_MAX_DEPTH ? NULL : get_fields(r, head);
    if (!n || ((head & H_BODY) && depth)) { /* only a declaration keeps its body apart */
        r->bad = true;
        return NULL;
    }
    uint32_t body = head & H_BODY ? body_slots(n->kind) : 0;
    get_slots(r, n, SLOTS_OF(head) & ~body, depth);
    if (body && !r->bad)
        get_body(r, n, head);
    return r->bad ? NULL : n;
}

ast_file *ast_image_read(const void *image, size_t len, uint64_t key, const char *path,
                         const char *text, size_t text_len, uint32_t file_id)
{
    return ast_image_read_as(image, len, key, path, text, text_len, file_id, false);
}

/* ast_image_read_as, and with image_path ast_image_read_apart (lazy then). */
static ast_file *read_image(const void *image, size_t len, uint64_t key, const char *path,
                            const char *text, size_t text_len, uint32_t file_id, bool lazy,
                            const char *image_path)
{
    const unsigned char *p = image;
    if (!p || len < HEADER_LEN || memcmp(p, MAGIC, 8) != 0)
        return NULL;
    uint64_t k, sum;
    uint32_t nums[4];
    memcpy(&k, p + 8, 8);
    memcpy(&sum, p + 16, 8);
    memcpy(nums, p + 24, sizeof nums);
    uint32_t body_len = nums[0], strings_len = nums[1], ndecls = nums[2];
    if (k != key || body_len != len - HEADER_LEN || strings_len > body_len || strings_len % 4 ||
        (body_len - strings_len) % 4 || nums[3] != text_len)
        return NULL;
    const unsigned char *body = p + HEADER_LEN, *words = body + strings_len;
    size_t nw = (body_len - strings_len) / 4;
    uint32_t ndecl_words;
    uint64_t bsum;
    if (nw < 3)
        return NULL;
    memcpy(&ndecl_words, words, sizeof ndecl_words);
    memcpy(&bsum, words + 4, sizeof bsum);
    if (ndecl_words > nw - 3 || ndecl_words < 2)
        return NULL;
    /* The sum covers the strings and the declarations' words (the bodies' sum among them);
     * the bodies' own sum is checked here when they are read, else at the first decoded. */
    size_t bodies_at = 3 + (size_t)ndecl_words;
    uint64_t got = ast_image_hash(body, strings_len, key);
    got = ast_image_hash(words, 4 * bodies_at, got);
    if (got != sum || (strings_len && body[strings_len - 1] != '\0'))
        return NULL;
    if (!lazy && ast_image_hash(words + 4 * bodies_at, 4 * (nw - bodies_at), key) != bsum)
        return NULL;
    /* N and V (the layout), bounded by the words they come from: a node takes five words at
     * least, an item one. The declarations, their nodes and their items are allocated at once
     * in one block of the tree's arena that they fill (the arena's blocks of 16 KiB left some
     * 390 KB unused over the bundled files: bench.md §9). */
    uint32_t nv[2];
    memcpy(nv, words + 4 * (bodies_at - 2), sizeof nv);
    size_t decl_words = (size_t)ndecl_words - 2;
    if (nv[0] > decl_words / 5 || nv[1] > decl_words || ndecls > decl_words)
        return NULL;
    size_t ipath_len = image_path ? strlen(image_path) : 0;
    if (ipath_len > UINT32_MAX)
        return NULL;
    size_t room = (image_path ? arena_room(strings_len) + arena_room(ipath_len + 1) : 0) +
                  (ndecls ? arena_room((size_t)ndecls * sizeof(ast_node *)) : 0) +
                  (nv[0] ? arena_room((size_t)nv[0] * sizeof(ast_node)) : 0) +
                  (nv[1] ? arena_room((size_t)nv[1] * sizeof(ast_node *)) : 0);
    ast_file *f = ast_file_sized(path, file_id, room);
    if (!f)
        return NULL;
    f->text = text; /* borrowed, not copied (bench.md §9) */
    f->text_len = text_len;
    reader r = { .f = f,
                 .words = words,
                 .nwords = bodies_at - 2, /* the declarations' words; a body's are read apart */
                 .at = 3,
                 .bodies_at = bodies_at,
                 .bodies_n = nw - bodies_at,
                 .strings_len = strings_len,
                 .lazy = lazy };
    /* The tree's strings are the image's, borrowed as the text is (checked above: they end
     * in a NUL, and string_at keeps every offset inside them): copying them into the arena
     * was 0.34 M instructions at each start (bench.md §9). */
    r.strings = strings_len ? (const char *)body : NULL;
    if (image_path) { /* read apart: the strings the tree's own, and where the bodies are */
        char *own = strings_len ? arena_alloc(f->arena, strings_len) : NULL;
        if (own)
            r.strings = memcpy(own, body, strings_len);
        f->image_path = ast_strndup(f, image_path, ipath_len);
        r.bad = (strings_len && !own) || !f->image_path;
    }
    if (!r.bad && ndecls) {
        f->decls.items = arena_alloc(f->arena, (size_t)ndecls * sizeof *f->decls.items);
        f->decls.cap = f->decls.items ? ndecls : 0;
        r.bad = !f->decls.items;
    }
    r.exact = true;
    r.nodes_left = nv[0];
    r.items_left = nv[1];
    if (!r.bad && nv[0] && !(r.nodes = arena_alloc(f->arena, (size_t)nv[0] * sizeof *r.nodes)))
        r.bad = true;
    if (!r.bad && nv[1] && !(r.items = arena_alloc(f->arena, (size_t)nv[1] * sizeof *r.items)))
        r.bad = true;
    for (uint32_t i = 0; i < ndecls && !r.bad; i++) {
        ast_node *d = get_node(&r, 0);
        if (!d) /* a file's declarations are never NULL */
            r.bad = true;
        else
            f->decls.items[f->decls.len++] = d;
    }
    if (r.bad || r.at != r.nwords || r.next_body != r.bodies_n || r.nodes_left || r.items_left) {
        ast_file_free(f);
        return NULL;
    }
    if (lazy) {                                       /* what ast_body_ready decodes from */
        f->image_words = image_path ? NULL : r.words; /* apart: read again at the first */
        f->image_len = len;
        f->image_nwords = nw;
        f->image_bodies_at = bodies_at;
        f->image_bodies_sum = bsum;
        f->image_key = key;
        f->image_strings = r.strings;
        f->image_strings_len = r.strings_len;
    }
    return f;
}

ast_file *ast_image_read_as(const void *image, size_t len, uint64_t key, const char *path,
                            const char *text, size_t text_len, uint32_t file_id, bool lazy)
{
    return read_image(image, len, key, path, text, text_len, file_id, lazy, NULL);
}

ast_file *ast_image_read_apart(const void *image, size_t len, uint64_t key, const char *path,
                               const char *text, size_t text_len, uint32_t file_id,
                               const char *image_path)
{
    if (!image_path)
        return NULL;
    return read_image(image, len, key, path, text, text_len, file_id, true, image_path);
}

/* The image of a tree read apart read again from its file, into f->image_owned, its words at
 * f->image_words (the strings' length is the tree's; they are not read from it); false only
 * when memory runs out. One that cannot be read or is of another length leaves the bodies
 * damaged (f->image_bodies 2: then parsed again); the bodies' sum decides the rest. */
static bool read_again(ast_file *f)
{
    char *buf = NULL;
    size_t n = 0;
    int err = file_read(f->image_path, f->image_len, &buf, &n);
    if (err == ENOMEM)
        return false;
    if (err || n != f->image_len || n < HEADER_LEN + (size_t)f->image_strings_len) {
        mem_free(buf);
        f->image_bodies = 2;
        return true;
    }
    f->image_owned = buf;
    f->image_words = (const unsigned char *)buf + HEADER_LEN + f->image_strings_len;
    return true;
}

/* Empties the body places of declaration d (a rule's guard, answer, block and lets; a fn's
 * expression), the rest of it kept. */
static void clear_body(ast_node *d)
{
    if (d->kind == AST_RULE) {
        d->a = d->c = NULL;
        d->list = (ast_vec){ 0 };
    }
    d->b = NULL;
}

/* The body of declaration d of f (its index i) taken from the text parsed again: a body whose
 * image passed the sum but not the reader's checks (damaged behind a recomputed sum). False
 * when memory runs out or the parse differs (it cannot, for the text the image was made of). */
static bool body_reparsed(ast_file *f, ast_node *d, ast_reparse_fn reparse)
{
    uint32_t i = 0;
    while (i < f->decls.len && f->decls.items[i] != d)
        i++;
    if (!f->reparsed && reparse) {
        f->reparsed = reparse(f);
        if (f->reparsed && f->reparsed->decls.len != f->decls.len) {
            ast_file_free(f->reparsed);
            f->reparsed = NULL;
        }
    }
    const ast_node *g = f->reparsed && i < f->decls.len ? f->reparsed->decls.items[i] : NULL;
    if (!g || g->kind != d->kind || g->loc.line != d->loc.line || g->loc.col != d->loc.col)
        return false;
    if (d->kind == AST_RULE) {
        d->a = g->a;
        d->c = g->c;
        d->list = g->list;
    }
    d->b = g->b;
    return true;
}

bool ast_body_ready(ast_file *f, ast_node *d, ast_reparse_fn reparse)
{
    if (!d || !d->body)
        return true;
    if (!f || (!f->image_words && !f->image_path) || d->body - 1 >= f->image_nwords ||
        d->body < f->image_bodies_at + 2)
        return false;
    if (!f->image_words && !f->image_bodies && !read_again(f))
        return false;
    if (f->image_bodies == 2 && !f->image_words) { /* apart, and not read again: the text */
        clear_body(d);
        if (!body_reparsed(f, d, reparse))
            return false;
        d->body = 0;
        return true;
    }
    if (!f->image_bodies) { /* the bodies' sum, at the first body decoded */
        size_t n = f->image_nwords - f->image_bodies_at;
        uint64_t got = ast_image_hash(f->image_words + 4 * f->image_bodies_at, 4 * n, f->image_key);
        f->image_bodies = got == f->image_bodies_sum ? 1 : 2;
    }
    size_t at = d->body - 1;
    uint32_t len;
    memcpy(&len, f->image_words + 4 * (at - 1), sizeof len);
    reader r = { .f = f,
                 .words = f->image_words,
                 .nwords = at + len, /* bounded by the body's own words */
                 .at = at,
                 .strings = f->image_strings,
                 .strings_len = f->image_strings_len };
    uint32_t slots = body_slots(d->kind);
    uint32_t head = f->image_bodies == 1 && len <= f->image_nwords - at ? get_word(&r) : 0;
    if (!slots || (head & 0xFF) != (uint32_t)d->kind + 1 || !(head & H_BODY))
        r.bad = true;
    if (!r.bad)
        get_slots(&r, d, SLOTS_OF(head) & slots, 0);
    if (r.bad || r.at != r.nwords) {
        clear_body(d); /* what was read of it is left in the arena */
        if (!body_reparsed(f, d, reparse))
            return false;
    }
    d->body = 0;
    return true;
}
