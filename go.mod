module github.com/oracle-ts/oracle

go 1.26.8

require (
	github.com/evanw/esbuild v0.28.2
	github.com/otiai10/copy v1.14.1
	github.com/tree-sitter/go-tree-sitter v0.25.0
	github.com/tree-sitter/tree-sitter-typescript v0.23.2
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/mattn/go-pointer v0.0.1 // indirect
	github.com/otiai10/mint v1.6.3 // indirect
	golang.org/x/sync v0.8.0 // indirect
	golang.org/x/sys v0.24.0 // indirect
)
