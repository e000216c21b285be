/** A synthetic feed of n items (HTML notes, enclosure, guid, pubDate, duration, season and episode numbers). */
export function generateFeed(n: number): string {
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:content="http://purl.org/rss/1.0/modules/content/">\n<channel>',
    '<title>Ten Thousand</title><link>https://big.example/</link><description>A very long-running show.</description><language>en</language>',
    '<itunes:author>Big Show</itunes:author><itunes:owner><itunes:name>Big</itunes:name><itunes:email>big@example.org</itunes:email></itunes:owner>',
    '<itunes:category text="News"/><itunes:image href="https://big.example/art.png"/><itunes:explicit>false</itunes:explicit>',
  ];
  const start = Date.UTC(2000, 0, 1);
  for (let i = n; i >= 1; i--) {
    const date = new Date(start + i * 86_400_000).toUTCString();
    parts.push(
      `<item><title>Episode ${i}: on subject number ${i % 97}</title><guid isPermaLink="false">big-${i}</guid><pubDate>${date}</pubDate>` +
        `<itunes:episode>${i}</itunes:episode><itunes:season>${Math.ceil(i / 1000)}</itunes:season><itunes:duration>${600 + (i % 3000)}</itunes:duration>` +
        `<enclosure url="https://cdn.big.example/ep${i}.mp3" length="${1_000_000 + i}" type="audio/mpeg"/>` +
        `<description><![CDATA[<p>In episode ${i} we talk about <strong>topic ${i % 97}</strong> with <a href="https://guest.example/${i}">a guest</a>.</p>` +
        `<ul><li>First point of ${i}</li><li>Second point</li></ul><p>${'Some more words about the subject. '.repeat(8)}</p>]]></description></item>`,
    );
  }
  parts.push('</channel>\n</rss>\n');
  return parts.join('\n');
}
