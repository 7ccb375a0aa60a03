/* parser.y — the pure bison grammar of .hon files (docs/spec/language.md §3-§6).
 *
 * Shares token kinds and FRONT_YYSTYPE with lexer.l, the parse context and AST builders with
 * grammar/build.h and front.c; actions are one-line builder calls. Two entry points: the
 * scanner's first token is START_FILE or START_EXPR. Syntax errors are E010/E012/E013
 * (yyreport_syntax_error below); recovery resumes at declaration boundaries. */
%require "3.8"
%define api.pure full
%define api.prefix {front_yy}
%define api.token.prefix {TOK_}
%define api.location.type {ast_loc}
%define parse.error custom
%define parse.lac full
%locations
%expect 0
%param {void *scanner} {front_ctx *ctx}

%code requires {
#include <stdbool.h>
#include <stdint.h>
#include "ast.h"
#include "grammar/build.h"
}

%code provides {
/* The scanner (lexer.l). */
int front_yylex(FRONT_YYSTYPE *yylval, ast_loc *yylloc, void *scanner, front_ctx *ctx);
}

%code {
#include <string.h>
#include "front.h"
#include "mem.h"

/* A rule's span runs from its first symbol to its last; an empty rule gets an empty span
 * (end before start) just after the symbol before it. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                              \
    do {                                                                         \
        if (N) {                                                                 \
            (Cur) = ast_loc_span(YYRHSLOC(Rhs, 1), YYRHSLOC(Rhs, N));            \
        } else {                                                                 \
            (Cur) = YYRHSLOC(Rhs, 0);                                            \
            (Cur).line = (Cur).end_line;                                         \
            (Cur).col = (Cur).end_col + 1;                                       \
        }                                                                        \
    } while (0)

/* The parser's stacks (and LAC's) grow through the hon funnel up to YYMAXDEPTH, which bounds
 * nesting. Running out of either depth or memory reaches yyerror("memory exhausted"), the only
 * use of yyerror (syntax errors go through yyreport_syntax_error); there, inside yyparse, the
 * stack sizes tell the two apart. */
#define YYMAXDEPTH 4000
#define YYMALLOC mem_malloc
#define YYFREE mem_free
#undef yyerror
#define yyerror(loc, scanner, ctx, msg) \
    stack_exhausted((ctx), *(loc), yystacksize >= YYMAXDEPTH || yyes_capacity >= YYMAXDEPTH)
static void stack_exhausted(front_ctx *ctx, ast_loc loc, bool too_deep);

#define NOVEC ((ast_vec){ 0 })
#define SYM(tok) YYTRANSLATE(tok)
}

/* Semantic values. Every node and string lives in the file's arena (ast.h), so no value owns
 * anything on its own: discarding one during error recovery leaks nothing, and no %destructor
 * is needed. Keyword tokens carry their static spelling (for `word`). */
%union {
    int64_t ival;
    const char *str;
    bool flag;
    ast_op op;
    ast_node *node;
    ast_vec vec;
}

%token END 0 "end of file"
%token START_FILE "start of file" START_EXPR "start of expression"
%token <str> IDENT "identifier"
%token <ival> INT "integer"
%token <str> STRING "string"
%token <str> SQUARE "square literal" UNIT_NAME "unit name"
%token ';' ',' ':' '.' '=' '(' ')' '{' '}' '[' ']' '<' '>' '+' '-' '*' '/' '%' '?'
%token ARROW "'->'" FATARROW "'=>'" EQEQ "'=='" NE "'!='" LE "'<='" GE "'>='"
%token CONCAT "'++'"
%token <str>
    ABILITY "'ability'" ALL "'all'" AND "'and'" ANSWER "'answer'" ANY "'any'"
    CITE "'cite'" COMBINE "'combine'" COUNT "'count'" COUNTER "'counter'" D6 "'d6'"
    DEFAULT "'default'" DOC "'doc'" EDITION "'edition'" ELSE "'else'" ENUM "'enum'"
    EXAMPLE "'example'" EXPECT "'expect'" EXTENDS "'extends'" FAILS "'fails'"
    FALSE "'false'" FLOOR "'floor'" FN "'fn'" FORBID "'forbid'" HAS "'has'" IF "'if'"
    IN "'in'" INTERSPACE_ITEM "'interspace_item'" KIND "'kind'" LEN "'len'" LET "'let'"
    MARKER "'marker'" MAX "'max'"
    MIN "'min'" NOT "'not'" OR "'or'" PERMIT "'permit'" PRIORITY "'priority'"
    QUERY "'query'" READING "'reading'" RECORD "'record'" REMOVE "'remove'"
    REPLACE "'replace'" ROLL "'roll'" RULE "'rule'" SET "'set'" SIDE "'side'"
    SIDE_FEATURE "'side_feature'" SOURCE "'source'" SQUARE_FEATURE "'square_feature'"
    SUM "'sum'" TABLE "'table'" TERRAIN "'terrain'" TEST "'test'" THEN "'then'"
    TOKEN "'token'" TRUE "'true'" VALUE "'value'" VARIANT "'variant'"
    CHOOSE "'choose'" DESTROY "'destroy'" DISEMBARK "'disembark'" DO "'do'"
    EMBARK "'embark'" EVENT "'event'" FACE "'face'" FAIL "'fail'" FLIP "'flip'" FOR "'for'"
    GIVE "'give'" MOVE "'move'" NOTE "'note'" PHASE "'phase'" PLACE "'place'"
    RAISE "'raise'" REQUIRE "'require'" TAKE "'take'"
    ADVANCE "'advance'" ALONG "'along'" AT "'at'" BOARD "'board'" BY "'by'"
    CHOICES "'choices'" DICE "'dice'" ENTER "'enter'" FIRST "'first'" INT_TYPE "'int'"
    LIST "'list'" NEAR "'near'" ON "'on'" PERMISSION "'permission'" PHASE_END "'phase_end'"
    PHASE_START "'phase_start'" TO "'to'" TURN_START "'turn_start'" WALK_END "'walk_end'"
    MODULE "'module'" PREFER "'prefer'" REVISE "'revise'" UNDER "'under'" UNLESS "'unless'"
    USES "'uses'" WHEN "'when'"

%type <node> decl counter counter_item simple_value table row cell cite rule edition_item
%type <node> variant_decl reading edition test expect param key_param field member entry
%type <node> type expr or_expr and_expr not_expr cmp_expr
%type <node> sum_expr mul_expr unary postfix primary init
%type <node> when_opt unless_opt answer_opt default_opt number let_clause setting source_decl
%type <node> moment_opt block stmt if_stmt operand primary_core primary_c cond or_c and_c
%type <node> not_c cmp_c sum_c mul_c unary_c postfix_c
%type <vec> members fields params params_opt key_params counter_items entries entries_opt
%type <vec> rows cells cites cites_opt lets edition_items readings settings expects stmts
%type <vec> exprs exprs_opt inits inits_opt names extends_opt uses_opt unders
%type <str> word type_word text text_opt doc_opt source_opt example_opt column_opt prefer_kind
%type <str> test_edition_opt vocab_word moment combine_word
%type <ival> priority_opt signed_int
%type <op> vocab_kw cmp_op combine_mode
%type <flag> floor_opt default_flag

%%

/* start = START_FILE { decl } | START_EXPR expr ; */
start
    : START_FILE file
    | START_EXPR expr                   { ctx->expr = $2; }
    ;

/* file = { decl } ;  After a syntax error the parser skips to the next declaration keyword
 * (`file error`) or past the next ';' (`file error ';'`), whichever comes first. Past a ';' or
 * a closing '}' the next declaration starts clean, so its errors are reported at once (yyerrok)
 * instead of after bison's usual three good tokens. */
file
    : %empty
    | file decl                         { front_add_decl(ctx, $2, @2); }
    | file error
    | file error ';'                    { yyerrok; }
    ;

/* ---------------------------------------------------------------- declarations (§3) */

/* decl = vocab_kw IDENT [ ':' 'int' ] [ text [ 'colour' STRING ] ] ';'  (§3.1, §5.1)
 *      | 'face' IDENT text 'shows' IDENT ';'                             (§6.1)
 *      | 'phase' IDENT [ text ] 'once' ';'                               (§6.5)
 *      | 'value' IDENT [ text ] ';'
 *      | 'enum' IDENT '{' IDENT { ',' IDENT } '}'
 *      | 'record' IDENT '{' field { ',' field } '}'
 *      | counter | table | fn | query | rule | variant | edition
 *      | 'default' 'edition' IDENT ';'
 *      | test | event | source_decl | 'module' IDENT [ text ] ';' ;
 * vocab_kw = 'kind' | 'side' | 'ability' | 'marker' | 'token' | 'terrain' | 'square_feature'
 *          | 'side_feature' | 'interspace_item' | 'phase' | 'face' ;
 * Another type than `int` after a vocabulary name is E017, and so is a colour on another word
 * than terrain and side_feature, or one that is no colour. `colour` is no keyword (a name
 * elsewhere): only this place reads the word, after the text, so that a name right after the
 * vocabulary name stays the syntax error it was. A word after the text other than a phase's
 * `once` is E010 (front_vocab_once). `shows` is no keyword either: a face's text may be
 * followed by `shows TERRAIN` (front_vocab_shows). */
decl
    : vocab_kw IDENT text_opt ';'       { $$ = front_vocab(ctx, @2, $1, $2, false, $3); }
    | vocab_kw IDENT text IDENT STRING ';'
                                        { $$ = front_vocab_colour(ctx, @2, $1, $2, $3, @4, $4,
                                                                  @5, $5); }
    | vocab_kw IDENT IDENT ';'          { $$ = front_vocab_once(ctx, @2, @3, $1, $2, NULL, $3); }
    | vocab_kw IDENT text IDENT ';'     { $$ = front_vocab_once(ctx, @2, @4, $1, $2, $3, $4); }
    | vocab_kw IDENT text IDENT IDENT ';'
                                        { $$ = front_vocab_shows(ctx, @2, $1, $2, $3, @4, $4,
                                                                 @5, $5); }
    | vocab_kw IDENT ':' INT_TYPE text_opt ';'
                                        { $$ = front_vocab(ctx, @2, $1, $2, true, $5); }
    | vocab_kw IDENT ':' IDENT text_opt ';'
                                        { $$ = front_vocab_bad_type(ctx, ast_loc_span(@3, @4),
                                                                    $1, $4); }
    | VALUE IDENT text_opt ';'          { $$ = front_doc_decl(ctx, AST_VALUE_DECL, @2, $2, $3); }
    | ENUM IDENT '{' members '}'        { $$ = front_items(ctx, AST_ENUM, @2, $2, $4); }
    | ENUM IDENT '{' error '}'          { $$ = NULL; yyerrok; }
    | RECORD IDENT '{' fields '}'       { $$ = front_items(ctx, AST_RECORD_DECL, @2, $2, $4); }
    | RECORD IDENT '{' error '}'        { $$ = NULL; yyerrok; }
    | counter
    | table
    | FN IDENT '(' params_opt ')' ARROW type '=' expr ';'
                                        { $$ = front_fn(ctx, @2, $2, $4, $7, $9); }
    | QUERY IDENT '(' params_opt ')' ARROW type COMBINE combine_mode doc_opt default_opt ';'
                                        { $$ = front_query(ctx, @2, $2, $4, $7, $9, $10, $11); }
    | rule
    | variant_decl
    | edition
    | DEFAULT EDITION IDENT ';'         { $$ = front_doc_decl(ctx, AST_DEFAULT_EDITION, @3, $3, NULL); }
    | test
    | EVENT IDENT '(' params_opt ')' moment_opt text_opt ';'
                                        { $$ = front_event(ctx, @2, $2, $4, $6, $7); }
    | source_decl
    | MODULE IDENT text_opt ';'         { $$ = front_module(ctx, @2, $2, $3); }
    ;

/* event = 'event' IDENT '(' [ params ] ')' [ 'on' moment ] [ text ] ';' ;         (§6.1)
 * moment = 'give' | 'take' | 'destroy' | 'enter' | 'walk_end' | 'phase_start' | 'phase_end'
 *        | 'turn_start' ;
 * Another identifier after `on` is kept for the resolver, which reports it (E163). */
moment_opt
    : %empty                            { $$ = NULL; }
    | ON moment                         { $$ = front_node(ctx, AST_NAME, @2, $2); }
    ;

moment
    : GIVE | TAKE | DESTROY | ENTER | WALK_END | PHASE_START | PHASE_END | TURN_START | IDENT
    ;

/* source_decl = 'source' STRING [ '=' text ] ';' ;                                  (§3.6)
 * Declares a citation ID and the source text every `cite` of it prints. */
source_decl
    : SOURCE STRING ';'                 { $$ = front_source(ctx, @2, $2, NULL); }
    | SOURCE STRING '=' text ';'        { $$ = front_source(ctx, @2, $2, $4); }
    ;

/* combine_mode = 'first' | 'sum' | 'min' | 'max' | 'all' | 'any' | 'permission' ;  (§3.5)
 * The word is looked up in dsl/combine_modes.h, the list of modes; another identifier is E015.
 * Each mode's keyword stands here (tests/dsl/test_parser.c parses every mode of the list). */
combine_mode
    : combine_word                      { $$ = front_combine(ctx, @1, $1); }
    ;

combine_word
    : FIRST | SUM | MIN | MAX | ALL | ANY | PERMISSION | IDENT
    ;

vocab_kw
    : KIND                              { $$ = AST_VOCAB_KIND; }
    | SIDE                              { $$ = AST_VOCAB_SIDE; }
    | ABILITY                           { $$ = AST_VOCAB_ABILITY; }
    | MARKER                            { $$ = AST_VOCAB_MARKER; }
    | TOKEN                             { $$ = AST_VOCAB_TOKEN; }
    | TERRAIN                           { $$ = AST_VOCAB_TERRAIN; }
    | SQUARE_FEATURE                    { $$ = AST_VOCAB_SQUARE_FEATURE; }
    | SIDE_FEATURE                      { $$ = AST_VOCAB_SIDE_FEATURE; }
    | INTERSPACE_ITEM                   { $$ = AST_VOCAB_INTERSPACE_ITEM; }
    | PHASE                             { $$ = AST_VOCAB_PHASE; }
    | FACE                              { $$ = AST_VOCAB_FACE; }
    ;

members
    : member                            { $$ = front_vec1(ctx, $1); }
    | members ',' member                { $$ = front_push(ctx, $1, $3); }
    ;

member
    : IDENT                             { $$ = front_node(ctx, AST_NAME, @1, $1); }
    ;

/* field = word ':' type ;  (a record field or a table column; keywords are allowed) */
fields
    : field                             { $$ = front_vec1(ctx, $1); }
    | fields ',' field                  { $$ = front_push(ctx, $1, $3); }
    ;

field
    : word ':' type                     { $$ = front_param(ctx, @1, $1, $3, false); }
    ;

/* param = IDENT ':' type ;  key_param = IDENT ':' type [ 'floor' ] ; */
params_opt
    : %empty                            { $$ = NOVEC; }
    | params
    ;

params
    : param                             { $$ = front_vec1(ctx, $1); }
    | params ',' param                  { $$ = front_push(ctx, $1, $3); }
    ;

param
    : IDENT ':' type                    { $$ = front_param(ctx, @1, $1, $3, false); }
    ;

key_params
    : key_param                         { $$ = front_vec1(ctx, $1); }
    | key_params ',' key_param          { $$ = front_push(ctx, $1, $3); }
    ;

key_param
    : IDENT ':' type floor_opt          { $$ = front_param(ctx, @1, $1, $3, $4); }
    ;

floor_opt
    : %empty                            { $$ = false; }
    | FLOOR                             { $$ = true; }
    ;

/* type = type_word | 'set' '<' type '>' | 'list' '<' type '>' ;
 * type_word = IDENT | 'int' | 'kind' | 'side' | 'ability' | 'marker' | 'token' | vocab_word ;
 * Another `NAME<T>` is E018. */
type
    : type_word                         { $$ = front_type_name(ctx, @1, $1); }
    | SET '<' type '>'                  { $$ = front_type_of(ctx, @$, AST_TYPE_SET, $3); }
    | LIST '<' type '>'                 { $$ = front_type_of(ctx, @$, AST_TYPE_LIST, $3); }
    | IDENT '<' type '>'                { $$ = front_bad_generic(ctx, @1, $1); }
    ;

type_word
    : IDENT | INT_TYPE | KIND | SIDE | ABILITY | MARKER | TOKEN | vocab_word
    ;

/* The board's vocabulary keywords, which also name built-in enums (and `terrain(sq)`), and
 * those of §6 (`phase`, `face`: the enums, and the calls `phase()`, `face(u)`). */
vocab_word
    : TERRAIN | SQUARE_FEATURE | SIDE_FEATURE | INTERSPACE_ITEM | PHASE | FACE
    ;

/* counter = 'counter' IDENT [ text ] ':' IDENT '{' { counter_item } '}' ;        (§3.2)
 * counter_item = word simple_value | word '{' [ entry { ',' entry } ] '}' ;
 * entry = IDENT [ signed_int ] ;
 * simple_value = signed_int | 'true' | 'false' | IDENT [ '.' word ] | '(' expr ')' ;
 * Items have no separator, so a value is a simple one; a braced list is always entries. */
counter
    : COUNTER IDENT text_opt ':' IDENT '{' counter_items '}'
                                        { $$ = front_counter(ctx, @2, $2, $3, $5, $7); }
    | COUNTER IDENT text_opt ':' IDENT '{' error '}'
                                        { $$ = NULL; yyerrok; }
    ;

counter_items
    : %empty                            { $$ = NOVEC; }
    | counter_items counter_item        { $$ = front_push(ctx, $1, $2); }
    ;

counter_item
    : word simple_value                 { $$ = front_counter_item(ctx, @1, $1, $2); }
    | word '{' entries_opt '}'          { $$ = front_counter_list(ctx, @1, $1, $3); }
    ;

entries_opt
    : %empty                            { $$ = NOVEC; }
    | entries
    ;

entries
    : entry                             { $$ = front_vec1(ctx, $1); }
    | entries ',' entry                 { $$ = front_push(ctx, $1, $3); }
    ;

entry
    : IDENT                             { $$ = front_named(ctx, AST_COUNTER_ENTRY, @1, $1, NULL); }
    | IDENT number                      { $$ = front_named(ctx, AST_COUNTER_ENTRY, @1, $1, $2); }
    ;

simple_value
    : number
    | TRUE                              { $$ = front_bool(ctx, @1, true); }
    | FALSE                             { $$ = front_bool(ctx, @1, false); }
    | IDENT                             { $$ = front_node(ctx, AST_NAME, @1, $1); }
    | IDENT '.' word                    { $$ = front_field(ctx, @$, front_node(ctx, AST_NAME, @1, $1), $3); }
    | '(' expr ')'                      { $$ = front_paren($2); }
    ;

number
    : signed_int                        { $$ = front_int(ctx, @1, $1); }
    ;

signed_int
    : INT
    | '-' INT                           { $$ = -$2; }
    ;

/* table = 'table' IDENT '(' key_param { ',' key_param } ')' '->' result [ cites ]
 *         '{' { row } '}' ;                                                    (§3.3)
 * result = type | '(' field { ',' field } ')' ;
 * row = expr { ',' expr } '=>' cell { ',' cell } [ cites ] ';' ;
 * cell = expr | '?' ; */
table
    : TABLE IDENT '(' key_params ')' ARROW type cites_opt '{' rows '}'
                                        { $$ = front_table(ctx, @2, $2, $4, $7, NOVEC, $8, $10); }
    | TABLE IDENT '(' key_params ')' ARROW '(' fields ')' cites_opt '{' rows '}'
                                        { $$ = front_table(ctx, @2, $2, $4, NULL, $8, $10, $12); }
    ;

rows
    : %empty                            { $$ = NOVEC; }
    | rows row                          { $$ = front_push(ctx, $1, $2); }
    | rows error ';'                    { yyerrok; }
    ;

row
    : exprs FATARROW cells cites_opt ';'
                                        { $$ = front_row(ctx, ast_loc_span(@1, @3), $1, $3, $4); }
    ;

cells
    : cell                              { $$ = front_vec1(ctx, $1); }
    | cells ',' cell                    { $$ = front_push(ctx, $1, $3); }
    ;

cell
    : expr
    | '?'                               { $$ = front_node(ctx, AST_NOT_GIVEN, @1, NULL); }
    ;

/* cites = cite { cite } ;  cite = 'cite' STRING [ 'source' text ] [ 'example' text ] ;
 * The ID's source text comes from its `source` declaration (the resolver, E170); a cite that
 * still writes its own is checked against it (E172). */
cites_opt
    : %empty                            { $$ = NOVEC; }
    | cites
    ;

cites
    : cite                              { $$ = front_vec1(ctx, $1); }
    | cites cite                        { $$ = front_push(ctx, $1, $2); }
    ;

cite
    : CITE STRING source_opt example_opt
                                        { $$ = front_cite(ctx, @2, $2, $3, $4); }
    ;

source_opt
    : %empty                            { $$ = NULL; }
    | SOURCE text                       { $$ = $2; }
    ;

example_opt
    : %empty                            { $$ = NULL; }
    | EXAMPLE text                      { $$ = $2; }
    ;

/* fn = 'fn' IDENT '(' [ params ] ')' '->' type '=' expr ';' ;                  (§3.4)
 * query = 'query' IDENT '(' [ params ] ')' '->' type 'combine' combine_mode
 *         [ 'doc' text ] [ 'default' expr ] ';' ;                              (§3.5) */
doc_opt
    : %empty                            { $$ = NULL; }
    | DOC text                          { $$ = $2; }
    ;

default_opt
    : %empty                            { $$ = NULL; }
    | DEFAULT expr                      { $$ = $2; }
    ;

/* rule = 'rule' IDENT '.' word [ 'priority' signed_int ] cites [ 'doc' text ]
 *        { 'let' IDENT '=' expr ';' } [ 'when' expr ] ( 'answer' expr | 'do' block ) ';' ;
 * (§3.6; `do` for the rules of an event, §6.2) */
rule
    : RULE IDENT '.' word priority_opt cites doc_opt lets when_opt ANSWER expr ';'
                                        { $$ = front_rule(ctx, ast_loc_span(@2, @4), $2, $4, $5,
                                                          $6, $7, $8, $9, $11); }
    | RULE IDENT '.' word priority_opt cites doc_opt lets when_opt DO block ';'
                                        { $$ = front_rule_do(ctx, front_rule(ctx,
                                                  ast_loc_span(@2, @4), $2, $4, $5, $6, $7, $8,
                                                  $9, NULL), $11); }
    ;

/* ---------------------------------------------------------------- statements (§6.3) */

/* block = '{' { stmt } '}' ;
 * stmt = 'give' operand operand [ operand ] ';'
 *      | 'take' operand operand [ operand | 'all' ] ';'
 *      | 'flip' operand 'to' expr ';'             | 'set' operand '=' expr ';'
 *      | 'destroy' operand ';'                    | 'move' operand 'to' expr [ ',' expr ] ';'
 *      | 'embark' operand 'in' expr ';'           | 'disembark' operand 'to' expr ';'
 *      | ( 'place' | 'remove' ) operand ( 'at' | 'near' ) expr ';'
 *      | 'place' operand 'at' expr 'value' expr ';'
 *      | 'raise' IDENT '(' [ exprs ] ')' ';'      | 'let' IDENT '=' expr ';'
 *      | 'let' IDENT '=' 'choose' '(' IDENT 'in' expr ',' 'by' ':' expr ')' [ text ] ';'
 *      | 'require' IDENT '(' [ exprs ] ')' [ text ] ';'
 *      | if_stmt | 'for' IDENT 'in' cond block    | ( 'note' | 'fail' ) text ';' ;
 * if_stmt = 'if' expr 'then' block [ 'else' ( block | if_stmt ) ] ;
 * The operands a statement takes side by side are `operand`s: names, literals, calls, `x.f`
 * and `t[k]`, never starting with a bracket (write `let n = a + 1;` first); after a word
 * (`to`, `in`, `at`, `near`) any expression may stand. An identifier where `flip`, `move`,
 * `disembark`, `place` or `remove` wants its word is E010 with the statement's form. The
 * collection of a `for` (`cond`) is an expression with no record literal at its top, so the
 * '{' after it opens the block. */
block
    : '{' stmts '}'                     { $$ = front_items(ctx, AST_BLOCK, @$, NULL, $2); }
    ;

stmts
    : %empty                            { $$ = NOVEC; }
    | stmts stmt                        { $$ = front_push(ctx, $1, $2); }
    | stmts error ';'                   { yyerrok; }
    ;

stmt
    : GIVE operand operand ';'          { $$ = front_stmt(ctx, @$, AST_ST_GIVE, $2, $3, NULL); }
    | GIVE operand operand operand ';'  { $$ = front_stmt(ctx, @$, AST_ST_GIVE, $2, $3, $4); }
    | TAKE operand operand ';'          { $$ = front_stmt(ctx, @$, AST_ST_TAKE, $2, $3, NULL); }
    | TAKE operand operand operand ';'  { $$ = front_stmt(ctx, @$, AST_ST_TAKE, $2, $3, $4); }
    | TAKE operand operand ALL ';'      { $$ = front_take_all(ctx, @$, $2, $3); }
    | FLIP operand TO expr ';'          { $$ = front_stmt(ctx, @$, AST_ST_FLIP, $2, $4, NULL); }
    | SET operand '=' expr ';'          { $$ = front_set_stmt(ctx, @$, $2, $4); }
    | DESTROY operand ';'               { $$ = front_stmt(ctx, @$, AST_ST_DESTROY, $2, NULL, NULL); }
    | MOVE operand TO expr ';'          { $$ = front_stmt(ctx, @$, AST_ST_MOVE, $2, $4, NULL); }
    | MOVE operand TO expr ',' expr ';' { $$ = front_stmt(ctx, @$, AST_ST_MOVE, $2, $4, $6); }
    | EMBARK operand IN expr ';'        { $$ = front_stmt(ctx, @$, AST_ST_EMBARK, $2, $4, NULL); }
    | DISEMBARK operand TO expr ';'
                                        { $$ = front_stmt(ctx, @$, AST_ST_DISEMBARK, $2, $4, NULL); }
    | DISEMBARK operand TO expr ',' expr ';'
                                        { $$ = front_stmt(ctx, @$, AST_ST_DISEMBARK, $2, $4, $6); }
    | PLACE operand AT expr ';'         { $$ = front_place(ctx, @$, AST_ST_PLACE, $2, $4, NULL, false); }
    | PLACE operand AT expr VALUE expr ';'
                                        { $$ = front_place(ctx, @$, AST_ST_PLACE, $2, $4, $6, false); }
    | PLACE operand NEAR expr ';'       { $$ = front_place(ctx, @$, AST_ST_PLACE, $2, $4, NULL, true); }
    | REMOVE operand AT expr ';'        { $$ = front_place(ctx, @$, AST_ST_REMOVE, $2, $4, NULL, false); }
    | REMOVE operand NEAR expr ';'      { $$ = front_place(ctx, @$, AST_ST_REMOVE, $2, $4, NULL, true); }
    | FLIP operand IDENT expr ';'       { $$ = front_bad_word(ctx, AST_ST_FLIP, $3, @3); }
    | MOVE operand IDENT expr ';'       { $$ = front_bad_word(ctx, AST_ST_MOVE, $3, @3); }
    | MOVE operand IDENT expr ',' expr ';'
                                        { $$ = front_bad_word(ctx, AST_ST_MOVE, $3, @3); }
    | DISEMBARK operand IDENT expr ';'  { $$ = front_bad_word(ctx, AST_ST_DISEMBARK, $3, @3); }
    | PLACE operand IDENT expr ';'      { $$ = front_bad_word(ctx, AST_ST_PLACE, $3, @3); }
    | REMOVE operand IDENT expr ';'     { $$ = front_bad_word(ctx, AST_ST_REMOVE, $3, @3); }
    | RAISE IDENT '(' exprs_opt ')' ';' { $$ = front_raise(ctx, @$, $2, $4); }
    | LET IDENT '=' expr ';'            { $$ = front_let(ctx, @2, $2, $4, NULL); }
    | LET IDENT '=' CHOOSE '(' IDENT IN expr ',' BY ':' expr ')' text_opt ';'
                                        { $$ = front_choose(ctx, @2, $2, $6, $8, $12, $14); }
    | if_stmt
    | FOR IDENT IN cond block           { $$ = front_for(ctx, @$, $2, $4, $5); }
    | cites block                       { $$ = front_cite_stmt(ctx, @$, $1, $2); }
    | NOTE text ';'                     { $$ = front_text_stmt(ctx, @$, AST_ST_NOTE, $2); }
    | FAIL text ';'                     { $$ = front_text_stmt(ctx, @$, AST_ST_FAIL, $2); }
    | REQUIRE IDENT '(' exprs_opt ')' text_opt ';'
                                        { $$ = front_require(ctx, @$,
                                                  front_call(ctx, ast_loc_span(@2, @5), $2, $4),
                                                  $6); }
    ;

if_stmt
    : IF expr THEN block                { $$ = front_if_stmt(ctx, @$, $2, $4, NULL); }
    | IF expr THEN block ELSE block     { $$ = front_if_stmt(ctx, @$, $2, $4, $6); }
    | IF expr THEN block ELSE if_stmt   { $$ = front_if_stmt(ctx, @$, $2, $4, $6); }
    ;

/* operand = primary_core { '.' word | '[' expr { ',' expr } ']' } ; */
operand
    : primary_core
    | operand '.' word                  { $$ = front_field(ctx, @$, $1, $3); }
    | operand '[' exprs ']'             { $$ = front_index(ctx, @$, $1, $3); }
    ;

/* cond: an expression whose top level holds no record literal `R{...}` (a record may stand
 * inside brackets): the same levels as `or_expr`, each without records. Only `for` needs it:
 * an `if` ends its condition with `then`. */
cond
    : or_c
    ;

or_c
    : or_c OR and_c                     { $$ = front_binary(ctx, @$, AST_OP_OR, $1, $3); }
    | and_c
    ;

and_c
    : and_c AND not_c                   { $$ = front_binary(ctx, @$, AST_OP_AND, $1, $3); }
    | not_c
    ;

not_c
    : NOT not_c                         { $$ = front_unary(ctx, @$, AST_OP_NOT, $2); }
    | cmp_c
    ;

cmp_c
    : sum_c
    | sum_c cmp_op sum_c                { $$ = front_binary(ctx, @$, $2, $1, $3); }
    | sum_c IN sum_c                    { $$ = front_binary(ctx, @$, AST_OP_IN, $1, $3); }
    ;

sum_c
    : sum_c '+' mul_c                   { $$ = front_binary(ctx, @$, AST_OP_ADD, $1, $3); }
    | sum_c CONCAT mul_c                { $$ = front_binary(ctx, @$, AST_OP_CONCAT, $1, $3); }
    | sum_c '-' mul_c                   { $$ = front_binary(ctx, @$, AST_OP_SUB, $1, $3); }
    | mul_c
    ;

mul_c
    : mul_c '*' unary_c                 { $$ = front_binary(ctx, @$, AST_OP_MUL, $1, $3); }
    | mul_c '/' unary_c                 { $$ = front_binary(ctx, @$, AST_OP_DIV, $1, $3); }
    | mul_c '%' unary_c                 { $$ = front_binary(ctx, @$, AST_OP_MOD, $1, $3); }
    | unary_c
    ;

unary_c
    : '-' unary_c                       { $$ = front_unary(ctx, @$, AST_OP_NEG, $2); }
    | postfix_c
    ;

postfix_c
    : primary_c
    | postfix_c '.' word                { $$ = front_field(ctx, @$, $1, $3); }
    | postfix_c '[' exprs ']'           { $$ = front_index(ctx, @$, $1, $3); }
    ;

priority_opt
    : %empty                            { $$ = 0; }
    | PRIORITY signed_int               { $$ = $2; }
    ;

lets
    : %empty                            { $$ = NOVEC; }
    | lets let_clause                   { $$ = front_push(ctx, $1, $2); }
    ;

let_clause
    : LET IDENT '=' expr ';'            { $$ = front_let(ctx, @2, $2, $4, NULL); }
    ;

when_opt
    : %empty                            { $$ = NULL; }
    | WHEN expr                         { $$ = $2; }
    ;

/* variant = 'variant' IDENT [ text ] '{' { reading } '}' ;                    (§3.7)
 * reading = 'reading' IDENT [ text ] [ 'default' ] ';' ; */
variant_decl
    : VARIANT IDENT text_opt '{' readings '}'
                                        { $$ = front_variant(ctx, @2, $2, $3, $5); }
    ;

readings
    : %empty                            { $$ = NOVEC; }
    | readings reading                  { $$ = front_push(ctx, $1, $2); }
    | readings error ';'                { yyerrok; }
    ;

reading
    : READING IDENT text_opt default_flag ';'
                                        { $$ = front_reading(ctx, @2, $2, $3, $4); }
    ;

default_flag
    : %empty                            { $$ = false; }
    | DEFAULT                           { $$ = true; }
    ;

/* edition = 'edition' IDENT [ 'extends' IDENT { ',' IDENT } ] [ 'uses' IDENT { ',' IDENT } ]
 *           [ text ] ( ';' | '{' { edition_item } '}' ) ;                          (§3.8)
 * edition_item = rule | 'replace' rule | 'remove' 'rule' IDENT '.' word ';'
 *              | 'set' 'variant' IDENT '=' IDENT ';'
 *              | 'revise' 'rule' IDENT '.' word { cite } [ 'when' expr ] [ 'unless' expr ]
 *                [ 'answer' expr ] ';'
 *              | 'revise' 'table' IDENT '[' exprs ']' [ '.' word ] '=' cell { ',' cell }
 *                { cite } ';'
 *              | 'revise' 'fn' IDENT '(' [ params ] ')' '->' type '=' expr ';'
 *              | 'revise' 'counter' IDENT '{' { counter_item } '}'
 *              | 'prefer' IDENT [ 'for' what ] ';' ;
 * what = 'rule' IDENT '.' word | ( 'table' | 'fn' | 'counter' | 'variant' ) IDENT ;
 * A `revise rule` with none of its three clauses is E010. */
edition
    : EDITION IDENT extends_opt uses_opt text_opt ';'
                                        { $$ = front_edition(ctx, @2, $2, $3, $4, $5, NOVEC); }
    | EDITION IDENT extends_opt uses_opt text_opt '{' edition_items '}'
                                        { $$ = front_edition(ctx, @2, $2, $3, $4, $5, $7); }
    ;

extends_opt
    : %empty                            { $$ = NOVEC; }
    | EXTENDS names                     { $$ = $2; }
    ;

uses_opt
    : %empty                            { $$ = NOVEC; }
    | USES names                        { $$ = $2; }
    ;

names
    : member                            { $$ = front_vec1(ctx, $1); }
    | names ',' member                  { $$ = front_push(ctx, $1, $3); }
    ;

edition_items
    : %empty                            { $$ = NOVEC; }
    | edition_items edition_item        { $$ = front_push(ctx, $1, $2); }
    | edition_items error ';'           { yyerrok; }
    ;

edition_item
    : rule                              { $$ = front_rule_as($1, AST_EDIT_ADD); }
    | REPLACE rule                      { $$ = front_rule_as($2, AST_EDIT_REPLACE); }
    | REMOVE RULE IDENT '.' word ';'    { $$ = front_remove(ctx, ast_loc_span(@3, @5), $3, $5); }
    | SET VARIANT IDENT '=' IDENT ';'   { $$ = front_set_variant(ctx, ast_loc_span(@3, @5), $3, $5); }
    | REVISE RULE IDENT '.' word cites_opt when_opt unless_opt answer_opt ';'
                                        { $$ = front_revise_rule(ctx, ast_loc_span(@3, @5), $3, $5, $6, $7, $8, $9, @10); }
    | REVISE TABLE IDENT '[' exprs ']' column_opt '=' cells cites_opt ';'
                                        { $$ = front_revise_table(ctx, @3, $3, $5, $7, $9, $10); }
    | REVISE FN IDENT '(' params_opt ')' ARROW type '=' expr ';'
                                        { $$ = front_revise_fn(ctx, front_fn(ctx, @3, $3, $5, $8, $10)); }
    | REVISE COUNTER IDENT '{' counter_items '}'
                                        { $$ = front_revise_counter(ctx, @3, $3, $5); }
    | PREFER IDENT ';'                  { $$ = front_prefer(ctx, @2, $2, NULL, NULL, @2); }
    | PREFER IDENT FOR prefer_kind IDENT ';'
                                        { $$ = front_prefer(ctx, @2, $2, $4, $5, @5); }
    | PREFER IDENT FOR RULE IDENT '.' word ';'
                                        { $$ = front_prefer(ctx, @2, $2, $4, front_rule_name(ctx, $5, $7), ast_loc_span(@5, @7)); }
    ;

prefer_kind
    : TABLE | FN | COUNTER | VARIANT
    ;

unless_opt
    : %empty                            { $$ = NULL; }
    | UNLESS expr                       { $$ = $2; }
    ;

answer_opt
    : %empty                            { $$ = NULL; }
    | ANSWER expr                       { $$ = $2; }
    ;

column_opt
    : %empty                            { $$ = NULL; }
    | '.' word                          { $$ = $2; }
    ;

/* test = 'test' text [ 'edition' IDENT ] { setting } '{' { item } '}' ;    (§3.9, §6.7)
 * setting = 'variant' IDENT '=' IDENT | 'board' STRING
 *         | 'dice' '[' [ exprs ] ']' | 'choices' '[' [ exprs ] ']' ;
 * item = 'expect' expr [ 'fails' IDENT ] ';'
 *      | 'expect' expr 'under' IDENT { ',' expr 'under' IDENT } ';'
 *      | 'do' IDENT '(' [ exprs ] ')' [ 'fails' IDENT ] ';'
 *      | 'advance' 'to' IDENT ';' | 'move' operand 'along' expr [ 'fails' IDENT ] ';' ; */
test
    : TEST text test_edition_opt settings '{' expects '}'
                                        { $$ = front_test(ctx, @2, $2, $3, $4, $6); }
    ;

test_edition_opt
    : %empty                            { $$ = NULL; }
    | EDITION IDENT                     { $$ = $2; }
    ;

settings
    : %empty                            { $$ = NOVEC; }
    | settings setting                  { $$ = front_push(ctx, $1, $2); }
    ;

setting
    : VARIANT IDENT '=' IDENT           { $$ = front_set_variant(ctx, ast_loc_span(@2, @4), $2, $4); }
    | BOARD STRING                      { $$ = front_node(ctx, AST_TEST_BOARD, @2, $2); }
    | DICE '[' exprs_opt ']'            { $$ = front_items(ctx, AST_TEST_DICE, @1, NULL, $3); }
    | CHOICES '[' exprs_opt ']'         { $$ = front_items(ctx, AST_TEST_CHOICES, @1, NULL, $3); }
    ;

expects
    : %empty                            { $$ = NOVEC; }
    | expects expect                    { $$ = front_push(ctx, $1, $2); }
    | expects EXPECT expr UNDER IDENT unders ';'
                                        { $$ = front_expect_under(ctx, $1, $3, front_under(ctx, @5, NULL, $5), $6); }
    | expects error ';'                 { yyerrok; }
    ;

/* unders = { ',' expr 'under' IDENT } ;  the other answers of `expect X == A under E, ...` */
unders
    : %empty                            { $$ = NOVEC; }
    | unders ',' expr UNDER IDENT       { $$ = front_push(ctx, $1, front_under(ctx, @5, $3, $5)); }
    ;

expect
    : EXPECT expr ';'                   { $$ = front_expect(ctx, @2, $2, NULL, @2); }
    | EXPECT expr FAILS IDENT ';'       { $$ = front_expect(ctx, @2, $2, $4, @4); }
    | DO IDENT '(' exprs_opt ')' ';'    { $$ = front_test_do(ctx, ast_loc_span(@2, @5),
                                                  front_call(ctx, ast_loc_span(@2, @5), $2, $4),
                                                  NULL, @5); }
    | DO IDENT '(' exprs_opt ')' FAILS IDENT ';'
                                        { $$ = front_test_do(ctx, ast_loc_span(@2, @5),
                                                  front_call(ctx, ast_loc_span(@2, @5), $2, $4),
                                                  $7, @7); }
    | ADVANCE TO IDENT ';'              { $$ = front_node(ctx, AST_TEST_ADVANCE, @$, $3); }
    | MOVE operand ALONG expr ';'       { $$ = front_test_move(ctx, @$, $2, $4, NULL, @4); }
    | MOVE operand ALONG expr FAILS IDENT ';'
                                        { $$ = front_test_move(ctx, @$, $2, $4, $6, @6); }
    ;

/* text = STRING { STRING } ;  adjacent strings are one text, joined with a space (§1) */
text
    : STRING
    | text STRING                       { $$ = front_join(ctx, $1, $2); }
    ;

text_opt
    : %empty                            { $$ = NULL; }
    | text
    ;

/* word = IDENT | any keyword ;  (field, column and counter item names) */
word
    : IDENT | ABILITY | ALL | AND | ANSWER | ANY | CITE | COMBINE | COUNT | COUNTER | D6
    | DEFAULT | DOC | EDITION | ELSE | ENUM | EXAMPLE | EXPECT | EXTENDS | FAILS | FALSE
    | FLOOR | FN | FORBID | HAS | IF | IN | KIND | LEN | LET | MARKER | MAX | MIN | NOT | OR
    | PERMIT | PRIORITY | QUERY | READING | RECORD | REMOVE | REPLACE | ROLL | RULE | SET
    | SIDE | SOURCE | SUM | TABLE | TEST | THEN | TOKEN | TRUE | VALUE | VARIANT | WHEN
    | INTERSPACE_ITEM | SIDE_FEATURE | SQUARE_FEATURE | TERRAIN
    | CHOOSE | DESTROY | DISEMBARK | DO | EMBARK | EVENT | FACE | FAIL | FLIP | FOR | GIVE
    | MOVE | NOTE | PHASE | PLACE | RAISE | REQUIRE | TAKE
    | ADVANCE | ALONG | AT | BOARD | BY | CHOICES | DICE | ENTER | FIRST | INT_TYPE | LIST | NEAR
    | ON | PERMISSION | PHASE_END | PHASE_START | TO | TURN_START | WALK_END
    | MODULE | PREFER | REVISE | UNDER | UNLESS | USES
    ;

/* ---------------------------------------------------------------- expressions (§4) */

/* expr = 'if' expr 'then' expr 'else' expr
 *      | 'let' IDENT '=' expr ';' expr
 *      | or_expr ;
 * The same `if` and `let` as in a block (§4): the `;` after a let's value ends it, the body
 * follows, and both forms extend as far right as they can. */
expr
    : IF expr THEN expr ELSE expr       { $$ = front_if(ctx, @$, $2, $4, $6); }
    | LET IDENT '=' expr ';' expr       { $$ = front_let(ctx, @$, $2, $4, $6); }
    | or_expr
    ;

/* or_expr = and_expr { 'or' and_expr } ;  and_expr = not_expr { 'and' not_expr } ;
 * not_expr = 'not' not_expr | cmp_expr ;
 * cmp_expr = sum_expr [ ( cmp_op | 'in' ) sum_expr ] ;       (non-associative) */
or_expr
    : or_expr OR and_expr               { $$ = front_binary(ctx, @$, AST_OP_OR, $1, $3); }
    | and_expr
    ;

and_expr
    : and_expr AND not_expr             { $$ = front_binary(ctx, @$, AST_OP_AND, $1, $3); }
    | not_expr
    ;

not_expr
    : NOT not_expr                      { $$ = front_unary(ctx, @$, AST_OP_NOT, $2); }
    | cmp_expr
    ;

cmp_expr
    : sum_expr
    | sum_expr cmp_op sum_expr          { $$ = front_binary(ctx, @$, $2, $1, $3); }
    | sum_expr IN sum_expr              { $$ = front_binary(ctx, @$, AST_OP_IN, $1, $3); }
    ;

cmp_op
    : EQEQ                              { $$ = AST_OP_EQ; }
    | NE                                { $$ = AST_OP_NE; }
    | '<'                               { $$ = AST_OP_LT; }
    | LE                                { $$ = AST_OP_LE; }
    | '>'                               { $$ = AST_OP_GT; }
    | GE                                { $$ = AST_OP_GE; }
    ;

/* sum_expr = mul_expr { ( '+' | '-' ) mul_expr } ;
 * mul_expr = unary { ( '*' | '/' | '%' ) unary } ;
 * unary = '-' unary | postfix ;   (`-` before an integer literal folds into it)
 * postfix = primary { '.' word | '[' expr { ',' expr } ']' } ; */
sum_expr
    : sum_expr '+' mul_expr             { $$ = front_binary(ctx, @$, AST_OP_ADD, $1, $3); }
    | sum_expr CONCAT mul_expr          { $$ = front_binary(ctx, @$, AST_OP_CONCAT, $1, $3); }
    | sum_expr '-' mul_expr             { $$ = front_binary(ctx, @$, AST_OP_SUB, $1, $3); }
    | mul_expr
    ;

mul_expr
    : mul_expr '*' unary                { $$ = front_binary(ctx, @$, AST_OP_MUL, $1, $3); }
    | mul_expr '/' unary                { $$ = front_binary(ctx, @$, AST_OP_DIV, $1, $3); }
    | mul_expr '%' unary                { $$ = front_binary(ctx, @$, AST_OP_MOD, $1, $3); }
    | unary
    ;

unary
    : '-' unary                         { $$ = front_unary(ctx, @$, AST_OP_NEG, $2); }
    | postfix
    ;

postfix
    : primary
    | postfix '.' word                  { $$ = front_field(ctx, @$, $1, $3); }
    | postfix '[' exprs ']'             { $$ = front_index(ctx, @$, $1, $3); }
    ;

/* primary = INT | 'true' | 'false' | 'forbid' | 'permit' | SQUARE | UNIT_NAME
 *         | IDENT | 'kind' | 'side' | 'ability' | 'marker' | 'token' | vocab_word
 *         | ( IDENT | vocab_word ) '(' [ exprs ] ')'     call
 *         | ( 'len' | 'has' | 'min' | 'max' ) '(' [ exprs ] ')'
 *         | agg '(' expr ':' expr ')'                      aggregate; the first expr must
 *                                                          read `NAME in LIST` (E014)
 *         | IDENT '{' [ init { ',' init } ] '}'            record   (init = word ':' expr)
 *         | '{' [ exprs ] '}'                              set
 *         | '[' [ exprs ] ']'                              list
 *         | '(' expr ')' | 'variant' IDENT | 'roll' 'd6' | 'roll' postfix 'd6' ;
 * agg = 'sum' | 'count' | 'all' | 'any' | 'min' | 'max' ;
 * `IDENT '{'` is always a record: no expression is ever followed by '{' in this grammar, so
 * one token of lookahead separates `R{f: 1}` from a name, and a set starts with '{'. */
primary
    : primary_c
    | IDENT '{' inits_opt '}'           { $$ = front_items(ctx, AST_RECORD, @$, $1, $3); }
    ;

/* primary_c = primary without `R{...}` (what a condition may hold at its top, §6.3);
 * filter = '[' NAME 'in' expr ':' expr ']' (the first expr must read `NAME in LIST`: E014);
 * map = '[' expr 'for' IDENT 'in' expr ']'. */
primary_c
    : primary_core
    | '{' exprs_opt '}'                 { $$ = front_items(ctx, AST_SET, @$, NULL, $2); }
    | '[' exprs_opt ']'                 { $$ = front_items(ctx, AST_LIST, @$, NULL, $2); }
    | '[' expr ':' expr ']'             { $$ = front_filter(ctx, @$, $2, $4); }
    | '[' expr FOR IDENT IN expr ']'    { $$ = front_map(ctx, @$, $2, $4, $6); }
    | '(' expr ')'                      { $$ = front_paren($2); }
    ;

/* primary_core = primary without anything that starts with a bracket or is a record: what
 * an operand of a statement starts with. */
primary_core
    : INT                               { $$ = front_int(ctx, @1, $1); }
    | TRUE                              { $$ = front_bool(ctx, @1, true); }
    | FALSE                             { $$ = front_bool(ctx, @1, false); }
    | FORBID                            { $$ = front_node(ctx, AST_FORBID, @1, NULL); }
    | PERMIT                            { $$ = front_node(ctx, AST_PERMIT, @1, NULL); }
    | IDENT                             { $$ = front_node(ctx, AST_NAME, @1, $1); }
    | KIND                              { $$ = front_node(ctx, AST_NAME, @1, $1); }
    | SIDE                              { $$ = front_node(ctx, AST_NAME, @1, $1); }
    | ABILITY                           { $$ = front_node(ctx, AST_NAME, @1, $1); }
    | MARKER                            { $$ = front_node(ctx, AST_NAME, @1, $1); }
    | TOKEN                             { $$ = front_node(ctx, AST_NAME, @1, $1); }
    | vocab_word                        { $$ = front_node(ctx, AST_NAME, @1, $1); }
    | SQUARE                            { $$ = front_square(ctx, @1, $1); }
    | UNIT_NAME                         { $$ = front_node(ctx, AST_UNIT_REF, @1, $1); }
    | IDENT '(' exprs_opt ')'           { $$ = front_call(ctx, @$, $1, $3); }
    | vocab_word '(' exprs_opt ')'      { $$ = front_call(ctx, @$, $1, $3); }
    | LEN '(' exprs_opt ')'             { $$ = front_call(ctx, @$, $1, $3); }
    | HAS '(' exprs_opt ')'             { $$ = front_call(ctx, @$, $1, $3); }
    | MIN '(' exprs ')'                 { $$ = front_call(ctx, @$, $1, $3); }
    | MAX '(' exprs ')'                 { $$ = front_call(ctx, @$, $1, $3); }
    | MIN '(' expr ':' expr ')'         { $$ = front_agg(ctx, @$, AST_AGG_MIN, $3, $5); }
    | MAX '(' expr ':' expr ')'         { $$ = front_agg(ctx, @$, AST_AGG_MAX, $3, $5); }
    | SUM '(' expr ':' expr ')'         { $$ = front_agg(ctx, @$, AST_AGG_SUM, $3, $5); }
    | COUNT '(' expr ':' expr ')'       { $$ = front_agg(ctx, @$, AST_AGG_COUNT, $3, $5); }
    | ALL '(' expr ':' expr ')'         { $$ = front_agg(ctx, @$, AST_AGG_ALL, $3, $5); }
    | ANY '(' expr ':' expr ')'         { $$ = front_agg(ctx, @$, AST_AGG_ANY, $3, $5); }
    | VARIANT IDENT                     { $$ = front_node(ctx, AST_VARIANT_REF, @$, $2); }
    | ROLL D6                           { $$ = front_roll(ctx, @$, NULL); }
    | ROLL postfix D6                   { $$ = front_roll(ctx, @$, $2); }
    ;

exprs_opt
    : %empty                            { $$ = NOVEC; }
    | exprs
    ;

exprs
    : expr                              { $$ = front_vec1(ctx, $1); }
    | exprs ',' expr                    { $$ = front_push(ctx, $1, $3); }
    ;

inits_opt
    : %empty                            { $$ = NOVEC; }
    | inits
    ;

inits
    : init                              { $$ = front_vec1(ctx, $1); }
    | inits ',' init                    { $$ = front_push(ctx, $1, $3); }
    ;

init
    : word ':' expr                     { $$ = front_named(ctx, AST_FIELD_INIT, @1, $1, $3); }
    ;

%%

/* A full stack is reported as the depth bound of front.c (FRONT_MAX_DEPTH levels): the stack
 * grows only with nesting (lists are left-recursive, a left operand is reduced before its
 * operator is shifted), by at most 5 entries per level (`if c then a else`, `let x = e ;`)
 * after a declaration's head, and a pair of parentheses is a level too: 4000 entries mean more
 * than 700 levels. */
static void stack_exhausted(front_ctx *ctx, ast_loc loc, bool too_deep)
{
    if (too_deep)
        front_error(ctx, E_TOO_DEEP, loc, "nesting too deep (more than %d levels)",
                    FRONT_MAX_DEPTH);
    else
        front_oom(ctx);
}

/* ---------------------------------------------------------------- syntax error messages */

/* Expected-token sets are summarised in words: "a declaration", "an expression",
 * "an operator", and "identifier" instead of identifier-or-any-keyword. */
static bool in_set(const yysymbol_kind_t *set, int n, yysymbol_kind_t s)
{
    for (int i = 0; i < n; i++)
        if (set[i] == s)
            return true;
    return false;
}

/* The keywords are declared in one block, so their symbol kinds are contiguous. */
static bool is_keyword(yysymbol_kind_t s)
{
    return s >= SYM(TOK_ABILITY) && s <= SYM(TOK_WHEN);
}

/* Token sets, as token codes (characters for one-character tokens). */
static const int decl_starters[] = {
    TOK_KIND, TOK_SIDE, TOK_ABILITY, TOK_MARKER, TOK_TOKEN, TOK_VALUE, TOK_ENUM, TOK_RECORD,
    TOK_COUNTER, TOK_TABLE, TOK_FN, TOK_QUERY, TOK_RULE, TOK_VARIANT, TOK_EDITION,
    TOK_DEFAULT, TOK_TEST, TOK_TERRAIN, TOK_SQUARE_FEATURE, TOK_SIDE_FEATURE, TOK_INTERSPACE_ITEM,
    TOK_EVENT, TOK_PHASE, TOK_FACE, TOK_SOURCE, TOK_MODULE,
};
static const int expr_starters[] = {
    TOK_INT, TOK_IDENT, TOK_TRUE, TOK_FALSE, TOK_FORBID, TOK_PERMIT, '(', '[', '{', '-',
    TOK_NOT, TOK_IF, TOK_LET, TOK_ROLL, TOK_VARIANT, TOK_SUM, TOK_COUNT, TOK_ALL, TOK_ANY,
    TOK_MIN, TOK_MAX, TOK_LEN, TOK_HAS, TOK_KIND, TOK_SIDE, TOK_ABILITY, TOK_MARKER, TOK_TOKEN,
    TOK_TERRAIN, TOK_SQUARE_FEATURE, TOK_SIDE_FEATURE, TOK_INTERSPACE_ITEM, TOK_SQUARE,
    TOK_UNIT_NAME, TOK_PHASE, TOK_FACE,
};
static const int comparisons[] = {
    '<', '>', TOK_EQEQ, TOK_NE, TOK_LE, TOK_GE, TOK_IN,
};
static const int operators[] = {
    '+', TOK_CONCAT, '-', '*', '/', '%', '<', '>', TOK_EQEQ, TOK_NE, TOK_LE, TOK_GE, TOK_AND, TOK_OR,
    TOK_IN, '.', '[',
};

#define IN_TOKENS(arr, s) in_tokens((arr), sizeof (arr) / sizeof *(arr), (s))

static bool in_tokens(const int *toks, size_t n, yysymbol_kind_t s)
{
    for (size_t i = 0; i < n; i++)
        if (SYM(toks[i]) == s)
            return true;
    return false;
}

enum { MAX_LISTED = 8 };

/* Describes the lookahead: "identifier 'foo'", "integer '12'", "'side'", "end of file". */
static void describe_token(const front_ctx *ctx, yysymbol_kind_t t, char *buf, size_t cap)
{
    int n = (int)(ctx->last_len < 32 ? ctx->last_len : 32);
    const char *more = ctx->last_len > 32 ? "..." : "";
    if (t == SYM(TOK_IDENT) && ctx->last_text)
        snprintf(buf, cap, "identifier '%.*s%s'", n, ctx->last_text, more);
    else if (t == SYM(TOK_INT) && ctx->last_text)
        snprintf(buf, cap, "integer '%.*s%s'", n, ctx->last_text, more);
    else
        snprintf(buf, cap, "%s", yysymbol_name(t));
}

/* Appends "expecting A, B or C" to buf from the expected set, summarised. */
static void describe_expected(yysymbol_kind_t *exp, int n, char *buf, size_t cap)
{
    const char *names[YYNTOKENS + 3];
    int k = 0;
    bool word = in_set(exp, n, SYM(TOK_IDENT)) && in_set(exp, n, SYM(TOK_EXTENDS));
    bool decl = !word && in_set(exp, n, SYM(TOK_ENUM)) && in_set(exp, n, SYM(TOK_QUERY));
    bool expr = !word && in_set(exp, n, SYM(TOK_INT)) && in_set(exp, n, SYM('('));
    bool oper = in_set(exp, n, SYM('+')) && in_set(exp, n, SYM('*'));
    if (decl)
        names[k++] = "a declaration";
    if (expr)
        names[k++] = "an expression";
    if (oper)
        names[k++] = "an operator";
    for (int i = 0; i < n; i++) {
        yysymbol_kind_t s = exp[i];
        if ((word && is_keyword(s)) || (decl && (IN_TOKENS(decl_starters, s) || s == SYM(TOK_END)))
            || (expr && IN_TOKENS(expr_starters, s)) || (oper && IN_TOKENS(operators, s)))
            continue;
        names[k++] = yysymbol_name(s);
    }
    if (k == 0 || k > MAX_LISTED)
        return;
    size_t len = strlen(buf);
    for (int i = 0; i < k && len < cap; i++) {
        const char *sep = i == 0 ? ", expecting " : i == k - 1 ? " or " : ", ";
        int w = snprintf(buf + len, cap - len, "%s%s", sep, names[i]);
        if (w < 0)
            break;
        len += (size_t)w;
    }
}

/* Reports one syntax error: E013 for a stray '?', E012 for a ';' missing at the end of a line
 * (or before a declaration or the end of the file), E010 otherwise (with a hint for chained
 * comparisons). An end of file inside an unclosed '{' was already reported by the scanner
 * (E011), as was one right after bytes no token starts with (E001). */
static int yyreport_syntax_error(const yypcontext_t *yyctx, void *scanner, front_ctx *ctx)
{
    (void)scanner;
    if (ctx->stop)
        return 0;
    yysymbol_kind_t t = yypcontext_token(yyctx);
    ast_loc loc = *yypcontext_location(yyctx);
    if (t == YYSYMBOL_YYEMPTY)          /* bison always has a lookahead here; be safe */
        t = YYSYMBOL_YYUNDEF;
    if (t == SYM(TOK_END) && (ctx->unclosed_reported || ctx->bad_last))
        return 0; /* E011, or the E001 of the bytes just before the end, said it */
    if (ctx->string_cut)                /* a cascade of the E002 just reported */
        return 0;
    if (t == SYM('?')) {
        front_error(ctx, E_STRAY_NOT_GIVEN, loc,
                    "'?' (not given) may only stand for a whole table cell");
        return 0;
    }
    yysymbol_kind_t exp[YYNTOKENS];
    int n = yypcontext_expected_tokens(yyctx, exp, YYNTOKENS);
    if (n < 0)
        n = 0;
    char what[96];
    describe_token(ctx, t, what, sizeof what);
    bool semi = in_set(exp, n, SYM(';'));
    if (semi && ctx->prev.line
        && (t == SYM(TOK_END) || IN_TOKENS(decl_starters, t) || loc.line > ctx->prev.end_line)) {
        ast_loc at = ctx->prev;
        at.line = at.end_line;
        at.col = at.end_col + 1;
        at.end_col = at.col;
        front_error(ctx, E_MISSING_SEMICOLON, at, "missing ';' before %s", what);
        return 0;
    }
    if (IN_TOKENS(comparisons, t) && in_set(exp, n, SYM('+'))
        && !in_set(exp, n, SYM(TOK_EQEQ))) {
        front_error(ctx, E_SYNTAX, loc, "unexpected %s: comparisons do not chain; join them with "
                    "'and'", what);
        return 0;
    }
    char msg[512];
    snprintf(msg, sizeof msg, "unexpected %s", what);
    describe_expected(exp, n, msg, sizeof msg);
    front_error(ctx, E_SYNTAX, loc, "%s", msg);
    return 0;
}
