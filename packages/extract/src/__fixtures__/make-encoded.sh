#!/bin/sh
# Writes the charset fixtures: UTF-8 sources re-encoded with iconv into the legacy charsets.
set -e
cd "$(dirname "$0")"
printf '<!doctype html><html><head><meta charset="shift_jis"><title>日本語のページ</title></head><body><article><h1>日本語のページ</h1><p>これは文字コードの試験です。吾輩は猫である。名前はまだ無い。</p></article></body></html>\n' | iconv -f UTF-8 -t SHIFT_JIS > shift-jis-meta.html
printf 'これは文字コードの試験です。吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。\n' | iconv -f UTF-8 -t SHIFT_JIS > shift-jis-undeclared.txt
printf 'Съешь же ещё этих мягких французских булок, да выпей чаю. Широкая электрификация южных губерний даст мощный толчок подъёму сельского хозяйства. В чащах юга жил бы цитрус? Да, но фальшивый экземпляр!\n' | iconv -f UTF-8 -t WINDOWS-1251 > windows-1251.txt
printf '<?xml version="1.0" encoding="ISO-8859-1"?>\n<rss version="2.0"><channel><title>Café du matin</title><link>https://example.org/</link><item><title>Crème brûlée à la française</title><link>/posts/creme</link><pubDate>Mon, 02 Jun 2025 08:00:00 GMT</pubDate><description>&lt;p&gt;Déjà vu, naïve façade.&lt;/p&gt;</description></item></channel></rss>\n' | iconv -f UTF-8 -t ISO-8859-1 > iso-8859-1-feed.xml
