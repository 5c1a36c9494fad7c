/**
 * Server names of the kind SA:MP, VC:MP and Minecraft servers carry, in the languages whose
 * players most often meet mojibake: written for this corpus, not taken from live servers.
 * {@link corpus} encodes each one in every charset that can hold it (UTF-8 always,
 * windows-1251 for Cyrillic, windows-1252 for the Latin ones it covers: not Polish ą ę ł ś ź ż ń
 * nor Turkish ş ğ ı), and cuts each into its words too, so that short strings are measured.
 */
import { textCodec } from '@gamequery/codec/internal';

export const names: Readonly<Record<string, readonly string[]>> = {
  ru: [
    'Русский сервер',
    'Лучший сервер России',
    '[RU] Ролевая игра | Москва',
    'Свобода и дружба',
    'Гонки по городу 24/7',
    'Сервер для новичков',
    'Добро пожаловать!',
    'Бандитский Петербург',
    'Зона выживания',
    'Полицейские будни',
    'Клан «Север» — набор открыт',
    'Жизнь в деревне',
    'Тёмный район',
    'Общий чат: только вежливо',
    'Мир',
    'Дрифт-клуб Восток',
    'Строй, играй, общайся',
    'Ночной город',
    'Щит и меч',
    'Ёлки-палки RP',
  ],
  uk: [
    'Український сервер',
    'Київ RP | Рольова гра',
    'Ласкаво просимо до Львова',
    'Сервер для друзів',
    'Їжак у тумані',
    'Гоночний клуб Дніпро',
    'Є місце для всіх',
    'Ґанок і сад',
    'Харківські вулиці',
    'Одеса — місто біля моря',
    'Вільна гра без правил',
    'Зимовий світ',
    'Тиха ніч',
    'Козацька слава',
    'Поліцейська академія',
    'Наш дім',
    'Чорне море',
    'Сільське життя',
    'Історія міста',
    'Ігри з друзями',
  ],
  pl: [
    'Polski Serwer RP',
    'Łódź i okolice',
    'Zabawa dla każdego',
    'Wyścigi uliczne — Kraków',
    'Gdańsk nocą',
    'Serwer ze znajomymi',
    'Życie na wsi',
    'Źródło przygód',
    'Ślązacy górą',
    'Prawdziwa wolność',
    'Drużyna łowców',
    'Miasto gniewu',
    'Ćwiczenia policji',
    'Mój dom, moja twierdza',
    'Wesoła gromada',
    'Północny wiatr',
    'Świat bez zasad',
    'Złota rybka',
    'Pięć gwiazdek',
    'Nowa Huta',
  ],
  de: [
    'Deutscher Server',
    'Größte Freiheit',
    'Willkommen in München',
    'Straßenrennen Köln',
    'Für alle Spieler',
    'Rollenspiel mit Würde',
    'Gemütliche Runde',
    'Übungsplatz',
    'Äpfel und Birnen',
    'Schöne Grüße aus Düsseldorf',
    'Polizei & Räuber',
    'Nürnberger Nächte',
    'Fröhliche Zocker',
    'Müllers Werkstatt',
    'Bärenstark',
    'Ölfeld-Tycoon',
    'Hafen von Lübeck',
    'Süße Träume',
    'Grün ist die Hoffnung',
    'Dörfliches Leben',
  ],
  pt: [
    'Servidor Brasileiro',
    'Roleplay São Paulo',
    'Diversão garantida',
    'Corridas na avenida',
    'Bem-vindos à cidade',
    'Polícia e ladrão',
    'Vida no interior',
    'Coração valente',
    'Servidor de Portugal',
    'Ação sem limites',
    'Ilha do Sol',
    'Família unida',
    'Mansões e carros',
    'Lá vem o trem',
    'Nação gamer',
    'Cidade Alta RP',
    'Pescaria com amigos',
    'Avô e netos',
    'Órfãos da noite',
    'Comunidade lusófona',
  ],
  es: [
    'Servidor Español',
    '¡Bienvenidos a Madrid!',
    'Rol serio en México',
    '¿Listo para correr?',
    'Diversión sin límites',
    'Policías y ladrones',
    'La ciudad de los niños',
    'Camión y carretera',
    'España unida',
    'Señor de la noche',
    'Montaña rusa',
    'Vida en el campo',
    'Acción y aventura',
    'Club náutico',
    'Pingüinos del sur',
    'Corazón de León',
    'Jardín secreto',
    'Más allá del mar',
    'Compañía de teatro',
    'Canción de otoño',
  ],
  tr: [
    'Türk Sunucusu',
    'İstanbul Rol Yapma',
    'Eğlence dolu oyun',
    'Şehir yarışları',
    'Güzel günler',
    'Arkadaşlarla oyna',
    'Köy hayatı',
    'Polis ve hırsız',
    'Çılgın sürücüler',
    'Özgürlük meydanı',
    'Ankara gecesi',
    'Büyük macera',
    'Dostluk sunucusu',
    'Gölge avcıları',
    'Yıldızlar altında',
    'Kırmızı şimşek',
    'Uçan halı',
    'Öğrenci yurdu',
    'Işık şehri',
    'Deniz kenarı',
  ],
};

export interface Sample {
  readonly language: string;
  readonly text: string;
  readonly charset: 'utf8' | 'windows-1251' | 'windows-1252';
  readonly bytes: Uint8Array;
  /** A whole name, or one word of it. */
  readonly whole: boolean;
}

/** Every name and every word, in every charset that encodes it, without the all-ASCII ones (nothing to detect). */
export function corpus(): Sample[] {
  const out: Sample[] = [];
  for (const [language, list] of Object.entries(names)) {
    for (const name of list) {
      const words = name.split(/\s+/).filter((w) => w !== name);
      for (const [text, whole] of [[name, true], ...words.map((w) => [w, false] as const)] as const) {
        for (const charset of ['utf8', 'windows-1251', 'windows-1252'] as const) {
          const bytes = textCodec(charset).encode(text);
          if (!bytes || bytes.every((b) => b < 0x80)) continue;
          out.push({ language, text, charset, bytes, whole });
        }
      }
    }
  }
  return out;
}

/** Accuracy of `choose` on the corpus by byte length: 1–3, 4–7, 8–15, 16 and more. */
export function accuracyByLength(
  choose: (bytes: Uint8Array) => string | undefined,
): { bucket: string; samples: number; correct: number }[] {
  const buckets = [
    [1, 3],
    [4, 7],
    [8, 15],
    [16, Infinity],
  ] as const;
  const samples = corpus();
  return buckets.map(([lo, hi]) => {
    const mine = samples.filter((s) => s.bytes.length >= lo && s.bytes.length <= hi);
    const correct = mine.filter((s) => textCodec((choose(s.bytes) as 'utf8') ?? 'latin1').decode(s.bytes) === s.text).length;
    return { bucket: hi === Infinity ? `${lo}+ bytes` : `${lo}–${hi} bytes`, samples: mine.length, correct };
  });
}
