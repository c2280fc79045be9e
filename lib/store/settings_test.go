package store_test

import (
	"path/filepath"
	"testing"

	"github.com/linemem/linemem/lib/store"
)

func TestSettings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := st.Setting(store.SettingMe); err != nil || v != "" {
		t.Fatalf("never set: %q, %v; want \"\", nil", v, err)
	}
	for _, want := range []string{"Ken", "佐藤 花子"} {
		if err := st.SetSetting(store.SettingMe, want); err != nil {
			t.Fatal(err)
		}
		if v, err := st.Setting(store.SettingMe); err != nil || v != want {
			t.Errorf("after setting %q: %q, %v", want, v, err)
		}
	}
	st.Close()
	if st, err = store.Open(path); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if v, _ := st.Setting(store.SettingMe); v != "佐藤 花子" {
		t.Errorf("reopened: %q, want the last value", v)
	}
}
