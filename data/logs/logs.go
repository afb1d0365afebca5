package logs

import (
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/alibaba"
	"github.com/schedplan/schedplan/data/google"
	"github.com/schedplan/schedplan/data/jhist"
	"github.com/schedplan/schedplan/data/rmsummary"
	"github.com/schedplan/schedplan/data/sls"
	"github.com/schedplan/schedplan/data/spark"
	"github.com/schedplan/schedplan/data/swf"
	"github.com/schedplan/schedplan/data/swimfull"
)

// Formats is the table of log formats, in the order --format, the README
// and docs/formats.md list them. Detection asks the formats' sniffers in
// this order too (data.LogFormat: markers first, then the shape of the
// first line).
var Formats = []data.LogFormat{
	spark.Format, jhist.Format, rmsummary.Format, sls.Format, sls.Rumen,
	google.Format, alibaba.Format, swf.Format, swimfull.Format,
}

func init() {
	for _, f := range Formats {
		data.RegisterLogFormat(f)
	}
}
