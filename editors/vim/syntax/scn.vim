" editors/vim/syntax/scn.vim — Vim syntax for .scn scenario files (docs/spec/board.md): the
" section words, comments, strings, squares and numbers; the names are declared in .hon files.
" ftdetect/hon.vim sets the filetype; editors/vscode/syntaxes/scn.tmLanguage.json is the same.
if exists("b:current_syntax")
  finish
endif

syn keyword scnKeyword army around at cite colour element elevation example face facing hex in
syn keyword scnKeyword interspace legend map mine_counter none off scenario side size square steps
syn keyword scnKeyword terrain topology unit value values with

syn match scnComment "#.*$" contains=@Spell
syn region scnString start=+"+ skip=+\\.+ end=+"+ end=+$+ contains=@Spell
syn match scnSquare "\<\u\{1,3}\d\+\>"
syn match scnNumber "\<\d\+\>"

hi def link scnKeyword Keyword
hi def link scnComment Comment
hi def link scnString String
hi def link scnSquare Constant
hi def link scnNumber Number

let b:current_syntax = "scn"
