" editors/vim/ftdetect/hon.vim — .hon rule files and .scn scenario files get their filetypes, whose
" syntax is editors/vim/syntax/hon.vim and scn.vim (installed with them: docs/editors.md).
autocmd BufRead,BufNewFile *.hon setfiletype hon
autocmd BufRead,BufNewFile *.scn setfiletype scn
