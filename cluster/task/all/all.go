package all

import (
	_ "github.com/schedplan/schedplan/cluster/task/coshh" // registers "coshh"
	_ "github.com/schedplan/schedplan/cluster/task/hpfsp" // registers "hpfsp"
)
