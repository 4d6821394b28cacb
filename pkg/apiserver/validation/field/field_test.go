package field

import "testing"

func TestPathAndMessages(t *testing.T) {
	p := NewPath("spec").Child("containers").Index(2).Child("env").Key("A")
	if got := p.String(); got != "spec.containers[2].env[A]" {
		t.Fatalf("path %q", got)
	}
	cases := []struct {
		err  *Error
		want string
	}{
		{Invalid(NewPath("metadata", "name"), "Foo", "must be lowercase"), `metadata.name: Invalid value: "Foo": must be lowercase`},
		{Required(NewPath("spec", "image"), ""), "spec.image: Required value"},
		{NotSupported(NewPath("spec", "policy"), "X", []string{"A", "B"}), `spec.policy: Unsupported value: "X": supported values: "A", "B"`},
		{Duplicate(NewPath("spec", "ports").Index(1), 80), "spec.ports[1]: Duplicate value: 80"},
		{Forbidden(NewPath("spec"), "may not change"), "spec: Forbidden: may not change"},
		{TooLong(NewPath("data"), 10), "data: Too long: may not be more than 10 bytes"},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
	causes := ErrorList{cases[0].err}.Causes()
	if causes[0].Field != "metadata.name" || string(causes[0].Type) != "FieldValueInvalid" {
		t.Fatalf("cause %+v", causes[0])
	}
}

func TestTooManyShowsAKnownCount(t *testing.T) {
	e := &Error{Type: TypeTooMany, Field: "spec.x", BadValue: int64(4), Detail: "must have at most 3 items"}
	if got := e.Error(); got != "spec.x: Too many: 4: must have at most 3 items" {
		t.Fatalf("got %q", got)
	}
	if got := TooMany(NewPath("spec", "x"), 4, 3).Error(); got != "spec.x: Too many: has 4 items, at most 3 allowed" {
		t.Fatalf("got %q", got)
	}
	if got := InvalidType(NewPath("spec", "x"), "string", "must be an integer").Error(); got != `spec.x: Invalid value: "string": must be an integer` {
		t.Fatalf("got %q", got)
	}
}
