package classify_test

import (
	"fmt"

	"github.com/schedplan/schedplan/classify"
	"gonum.org/v1/gonum/mat"
)

func ExampleKMeans() {
	// Two pairs of points on a line.
	x := mat.NewDense(4, 1, []float64{0, 10, 1, 11})
	r, err := classify.KMeans(x, 2, classify.KMeansOptions{Restarts: 3, Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println("same cluster:", r.Assign[0] == r.Assign[2], r.Assign[1] == r.Assign[3], r.Assign[0] == r.Assign[1])
	fmt.Println("inertia:", r.Inertia)
	// Output:
	// same cluster: true true false
	// inertia: 1
}
