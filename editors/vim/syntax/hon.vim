" editors/vim/syntax/hon.vim — Vim syntax for .hon rule files (docs/spec/language.md): keywords
" (the lexer's, dsl/grammar/lexer.l; tests/editors/check.py keeps them equal), comments, strings,
" squares (@C4), units ($rifle1), numbers and rule names. ftdetect/hon.vim sets the filetype.
if exists("b:current_syntax")
  finish
endif

syn keyword honDeclaration ability board combine counter default edition enum event extends face fn
syn keyword honDeclaration interspace_item kind marker module phase priority query reading record
syn keyword honDeclaration remove replace revise rule side side_feature source square_feature table
syn keyword honDeclaration terrain test token uses value variant
syn keyword honStatement advance all along answer any at by choices choose cite count d6 destroy
syn keyword honStatement dice disembark do doc else embark enter example expect fail fails first
syn keyword honStatement flip floor for give if len let max min move note on permission phase_end
syn keyword honStatement phase_start place prefer raise require roll sum take then to turn_start
syn keyword honStatement under unless walk_end when
syn keyword honOperator and has in near not or
syn keyword honType int list set
syn keyword honConstant false forbid permit true

syn match honComment "#.*$" contains=@Spell
syn region honString start=+"+ skip=+\\.+ end=+"+ end=+$+ contains=@Spell
syn match honNumber "\<\d\+\>"
syn match honSquare "@\a\+\d\+"
syn match honUnit "\$[A-Za-z_]\w*"
syn match honRuleName "\<rule\s\+\zs\h\w*\.\h\w*"
" `colour` is no keyword: a word only before a terrain or side_feature's colour (language.md §5.1)
syn match honDeclaration "\<colour\ze\s*\""

hi def link honDeclaration Keyword
hi def link honStatement Statement
hi def link honOperator Operator
hi def link honType Type
hi def link honConstant Constant
hi def link honComment Comment
hi def link honString String
hi def link honNumber Number
hi def link honSquare Constant
hi def link honUnit Identifier
hi def link honRuleName Function

let b:current_syntax = "hon"
