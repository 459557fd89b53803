module topochess

go 1.26.8

require (
	github.com/fogleman/gg v1.3.0
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0
	go.etcd.io/bbolt v1.5.0
	golang.org/x/image v0.47.0
	gopkg.in/yaml.v3 v3.0.1
)

require golang.org/x/sys v0.49.0 // indirect
