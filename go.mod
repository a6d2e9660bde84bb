module github.com/oracle-ts/oracle

go 1.26.8

require (
	github.com/evanw/esbuild v0.28.2
	github.com/tree-sitter/go-tree-sitter v0.25.0
	github.com/tree-sitter/tree-sitter-typescript v0.23.2
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/mattn/go-pointer v0.0.1 // indirect
	golang.org/x/sys v0.0.0-20220715151400-c0bba94af5f8 // indirect
)
