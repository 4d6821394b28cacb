package fieldmanager

// SlowPath returns a copy of f without its fast paths: whole objects
// compared, every fieldsV1 decoded and encoded on each write.
func SlowPath(f *FieldManager) *FieldManager {
	g := *f
	g.fullCompare, g.sets = true, nil
	if f.scale != nil {
		g.scale = SlowPath(f.scale)
	}
	return &g
}
